"""``dragonlair serve`` processes that start in a fraction of a second, for the tests that
start (and SIGKILL) dozens of them: the crash test (tests/server/test_crash.py) and the
multi-process clusters (tests/server_multi/cluster.py).

A new interpreter spends seconds of CPU importing the server before it listens. Here one
helper process, the *zygote* (``python -m tests.server.zygote``), imports the server once;
each :func:`spawn` asks it to ``fork()``, and the child runs the command line's ``main()``
with ``serve ...``, exactly as the ``dragonlair`` command does, its stdout and stderr
appended to a log file, its environment the caller's. The child is a process of its own: a
SIGKILL kills it alone, as it would kill ``dragonlair serve``; the database, the sockets and
the port are its own. The zygote stays single-threaded (it only imports), so the fork is
safe, and its children inherit no test's state: it never imports a test module.

The test process is not the child's parent, so it watches the child through a pidfd
(Linux): :class:`Forked` offers what the tests use of :class:`subprocess.Popen` (``pid``,
``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``; the exit status is not known
here, only that it ended). Where there is no pidfd (not Linux), or
``DRAGONLAIR_TEST_NO_ZYGOTE=1``, :func:`spawn` starts the ``dragonlair`` command itself.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parents[2]


class Forked:
    """A child of the zygote, watched through a pidfd (the parts of ``Popen`` the tests
    use). ``returncode`` is ``-1`` once it ended: its real status went to the zygote."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None
        try:
            self._fd: int | None = os.pidfd_open(pid)
        except ProcessLookupError:  # already gone (and reaped)
            self._fd = None
            self.returncode = -1

    def poll(self) -> int | None:
        if self.returncode is None and self._fd is not None and \
                select.select([self._fd], [], [], 0)[0]:
            self._ended()
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None and self._fd is not None:
            ready, _, _ = select.select([self._fd], [], [], timeout)
            if not ready:
                raise subprocess.TimeoutExpired(["dragonlair", "serve"], timeout or 0)
            self._ended()
        assert self.returncode is not None
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None and self._fd is not None:
            signal.pidfd_send_signal(self._fd, sig)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def stopped(self) -> bool:
        """Whether it is stopped (SIGSTOP), from ``/proc``."""
        try:
            stat = Path(f"/proc/{self.pid}/stat").read_text()
        except OSError:
            return False
        return stat.rsplit(")", 1)[1].split()[0] in ("T", "t")

    def _ended(self) -> None:
        self.returncode = -1
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class Zygote:
    """The helper process: one request a line (JSON: ``args``, ``log``, ``env``), answered
    with the child's pid."""

    def __init__(self) -> None:
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.server.zygote"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     cwd=ROOT, env=env)
        self.lock = threading.Lock()

    def spawn(self, args: list[str], log: Path, env: dict[str, str]) -> Forked:
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        request = json.dumps({"args": args, "log": str(log), "env": env})
        with self.lock:  # the pidfd is opened before the zygote reaps anything again
            stdin.write(request.encode() + b"\n")
            stdin.flush()
            answer = stdout.readline()
            if not answer:
                raise RuntimeError(f"the zygote exited ({self.proc.wait()})")
            return Forked(int(answer))

    def close(self) -> None:
        if self.proc.poll() is None:
            assert self.proc.stdin is not None
            self.proc.stdin.close()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


_zygote: Zygote | None = None
_made = threading.Lock()


def zygote_wanted() -> bool:
    return hasattr(os, "pidfd_open") and hasattr(signal, "pidfd_send_signal") and \
        os.environ.get("DRAGONLAIR_TEST_NO_ZYGOTE") != "1"


def spawn(args: list[str], log: Path, env: dict[str, str],
          command: list[str]) -> Forked | subprocess.Popen[bytes]:
    """``dragonlair ARGS...`` (``args`` starting with ``serve``), its output appended to
    ``log``, with the environment ``env``: forked from the zygote, or else ``command``
    (the ``dragonlair`` command) started anew."""
    global _zygote
    if not zygote_wanted():
        with log.open("ab") as out:
            return subprocess.Popen([*command, *args], stdout=out, stderr=subprocess.STDOUT,
                                    env=env)
    log.touch()  # there at once, as a file Popen writes to
    with _made:
        if _zygote is None or _zygote.proc.poll() is not None:
            _zygote = Zygote()
            atexit.register(_zygote.close)
        zygote = _zygote
    return zygote.spawn(args, log, env)


def stopped(proc: Forked | subprocess.Popen[bytes], timeout: float = 10) -> bool:
    """Wait until ``proc`` is stopped (after a SIGSTOP); whether it is."""
    if isinstance(proc, Forked):
        deadline = time.monotonic() + timeout
        while not proc.stopped():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.005)
        return True
    _, status = os.waitpid(proc.pid, os.WUNTRACED)
    return os.WIFSTOPPED(status)


# ------------------------------------------------------------------ the zygote itself
def _child(request: dict[str, Any], main: Any) -> None:
    """In the forked child: become ``dragonlair ARGS...``; never returns."""
    code = 1
    try:
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        out = os.open(request["log"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        nothing = os.open(os.devnull, os.O_RDONLY)
        os.dup2(nothing, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        os.close(nothing)
        os.environ.clear()
        os.environ.update(request["env"])
        sys.argv = ["dragonlair", *request["args"]]
        try:
            main()
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 0 if exc.code is None else 1
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def _serve_requests(stdin: IO[str], stdout: IO[str]) -> None:
    """The zygote's loop: read a request, fork, answer the child's pid. Children that ended
    are reaped only here, after their pid was answered (and the caller opened its pidfd),
    so no pid is reused while a caller may still look it up."""
    import dragonlair.server.app  # noqa: F401  the server, imported once, here
    from dragonlair.cli.main import main

    for line in stdin:
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        request = json.loads(line)
        pid = os.fork()
        if pid == 0:
            _child(request, main)
        stdout.write(f"{pid}\n")
        stdout.flush()


if __name__ == "__main__":
    _serve_requests(sys.stdin, sys.stdout)
