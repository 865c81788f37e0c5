import { readFileSync, rmSync } from 'node:fs';
import { STATE } from './global-setup';

export default function teardown(): void {
  try {
    const { pid, data } = JSON.parse(readFileSync(STATE, 'utf-8')) as { pid: number; data: string };
    process.kill(pid, 'SIGTERM');
    rmSync(data, { recursive: true, force: true });
    rmSync(STATE, { force: true });
  } catch {
    /* already gone */
  }
}
