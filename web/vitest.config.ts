// Unit tests of the client's own logic (pure TypeScript: no build plugins needed).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['src/**/*.test.ts'], environment: 'node' },
});
