"""A Windows-shaped Python on Linux: the stand-in for a Windows run (these machines have no Windows runner).

Put this folder on PYTHONPATH and every Python process started with that
environment (the tool, its spawned workers, a `module:` player's host, a Python
`cmd:` bot) loses what Windows does not have:

- the POSIX-only modules cannot be imported (`fcntl`, `termios`, `pty`, `tty`,
  `resource`, `grp`, `pwd`, `readline`, ...);
- the code of the tool's package (and of the program run as `__main__`) sees `os`,
  `signal`, `select`, `subprocess` and `multiprocessing` without their POSIX-only
  names (`os.fork`, `os.killpg`, `os.O_NONBLOCK`, `signal.SIGHUP`, `signal.SIGKILL`,
  ...); `select.select` refuses anything but a socket, `subprocess.Popen` refuses
  `preexec_fn`, and `multiprocessing` has no `fork` or `forkserver` start method,
  as on Windows;
- `msvcrt` exists, with the one call the tool uses (`locking`), made of the real
  `flock`, so the Windows branch of the record lock runs.

Only the tool's own code sees the narrowed modules (an import hook gives its
modules their own `__import__`): the standard library keeps its POSIX internals,
which on Windows are other internals. What this cannot show (a real Windows run
would): the Windows branches themselves (job objects, `CREATE_NEW_PROCESS_GROUP`,
`msvcrt`'s own locks, the console), path and quoting rules, and the standard
library's Windows code. docs/development.md says the same.

`FOURSQUARE_WINDOWS_SHAPED` names the packages narrowed (default `foursquare_cli`):
the test of the stand-in itself narrows a package of its own, to show it bites.
"""

from __future__ import annotations

import builtins
import errno
import importlib
import importlib.abc
import os
import stat
import sys
import types

PACKAGES = tuple(os.environ.get("FOURSQUARE_WINDOWS_SHAPED", "foursquare_cli").split(","))

_real_fcntl = importlib.import_module("fcntl")
for _name in ("fcntl", "termios", "pty", "tty", "resource", "grp", "pwd", "readline", "syslog", "crypt", "posix_ipc"):
    sys.modules[_name] = None  # type: ignore[assignment]  # import raises ImportError, as on Windows

_msvcrt = types.ModuleType("msvcrt", "Windows' msvcrt, the part the tool uses, made of flock (the stand-in).")
_msvcrt.LK_UNLCK, _msvcrt.LK_LOCK, _msvcrt.LK_NBLCK, _msvcrt.LK_RLCK, _msvcrt.LK_NBRLCK = 0, 1, 2, 3, 4


def _locking(fd: int, mode: int, nbytes: int) -> None:
    if mode == _msvcrt.LK_UNLCK:
        _real_fcntl.flock(fd, _real_fcntl.LOCK_UN)
        return
    try:
        _real_fcntl.flock(fd, _real_fcntl.LOCK_EX | (_real_fcntl.LOCK_NB if mode == _msvcrt.LK_NBLCK else 0))
    except BlockingIOError:
        raise OSError(errno.EDEADLK, "Resource deadlock avoided") from None


_msvcrt.locking = _locking
for _probe in ("subprocess", "getpass"):  # they take an importable msvcrt to mean Windows: they come first
    importlib.import_module(_probe)
sys.modules["msvcrt"] = _msvcrt

_OS_POSIX_ONLY = set(
    """fork forkpty register_at_fork killpg getpgid getpgrp setpgid setpgrp setsid getsid tcgetpgrp tcsetpgrp
    getuid geteuid getgid getegid getgroups setgroups initgroups getgrouplist setuid seteuid setgid setegid
    setreuid setregid getresuid getresgid setresuid setresgid fchmod fchown chown lchown lchmod chroot fchdir
    fdatasync sync set_blocking get_blocking O_NONBLOCK O_NDELAY O_CLOEXEC O_NOCTTY O_SYNC O_DSYNC O_DIRECTORY
    O_NOFOLLOW O_ASYNC O_DIRECT O_LARGEFILE O_PATH O_TMPFILE O_ACCMODE O_FSYNC O_RSYNC O_NOATIME wait wait3 wait4
    waitid WNOHANG WUNTRACED WCONTINUED WIFEXITED WEXITSTATUS WIFSIGNALED WTERMSIG WIFSTOPPED WSTOPSIG WCOREDUMP
    WIFCONTINUED sysconf sysconf_names confstr confstr_names pathconf fpathconf pathconf_names uname nice
    getpriority setpriority pipe2 mkfifo mknod major minor makedev openpty ttyname ctermid statvfs fstatvfs
    getloadavg sched_getaffinity sched_setaffinity posix_spawn posix_spawnp posix_fadvise posix_fallocate pread
    pwrite preadv pwritev sendfile readv writev lockf F_LOCK F_TLOCK F_ULOCK F_TEST getxattr setxattr listxattr
    removexattr memfd_create eventfd splice copy_file_range setns unshare pidfd_open login_tty grantpt unlockpt
    ptsname posix_openpt EX_OK EX_USAGE EX_DATAERR EX_NOINPUT EX_SOFTWARE EX_OSERR EX_IOERR EX_TEMPFAIL""".split()
)
_SIGNAL_WINDOWS = set(
    """SIGABRT SIGFPE SIGILL SIGINT SIGSEGV SIGTERM SIG_DFL SIG_IGN NSIG signal getsignal default_int_handler
    set_wakeup_fd raise_signal strsignal valid_signals Signals Handlers""".split()
)


def _narrowed(module: types.ModuleType, keep: object) -> types.ModuleType:
    view = types.ModuleType(module.__name__, module.__doc__)
    view.__dict__.update({name: value for name, value in vars(module).items() if keep(name)})  # type: ignore[operator]
    return view


def _os_view() -> types.ModuleType:
    return _narrowed(os, lambda name: name not in _OS_POSIX_ONLY)


def _signal_view() -> types.ModuleType:
    import signal

    return _narrowed(signal, lambda name: not name.startswith(("SIG", "ITIMER", "Sig")) or name in _SIGNAL_WINDOWS)


def _select_view() -> types.ModuleType:
    import select

    view = _narrowed(select, lambda name: name in ("error", "select", "__name__", "__doc__"))

    def select_sockets_only(rlist, wlist, xlist, timeout=None):  # type: ignore[no-untyped-def]
        for item in (*rlist, *wlist, *xlist):
            fd = item if isinstance(item, int) else item.fileno()
            if not stat.S_ISSOCK(os.fstat(fd).st_mode):
                raise OSError(10038, "An operation was attempted on something that is not a socket")
        return select.select(rlist, wlist, xlist, timeout)

    view.select = select_sockets_only
    return view


def _subprocess_view() -> types.ModuleType:
    import subprocess

    view = _narrowed(subprocess, lambda name: True)

    class Popen(subprocess.Popen):  # type: ignore[type-arg]
        def __init__(self, *args, **kwargs):  # type: ignore[no-untyped-def]
            if kwargs.get("preexec_fn") is not None:
                raise ValueError("preexec_fn is not supported on Windows platforms")
            if kwargs.get("pass_fds"):
                raise ValueError("pass_fds is not supported on Windows platforms")
            super().__init__(*args, **kwargs)

    view.Popen = Popen
    return view


def _multiprocessing_view() -> types.ModuleType:
    import multiprocessing

    view = _narrowed(multiprocessing, lambda name: True)

    def get_context(method=None):  # type: ignore[no-untyped-def]
        if method in ("fork", "forkserver"):
            raise ValueError(f"cannot find context for {method!r}")
        return multiprocessing.get_context(method or "spawn")

    view.get_context = get_context
    view.get_all_start_methods = lambda: ["spawn"]
    return view


_VIEWS = {
    "os": _os_view,
    "signal": _signal_view,
    "select": _select_view,
    "subprocess": _subprocess_view,
    "multiprocessing": _multiprocessing_view,
}
_made: dict[str, types.ModuleType] = {}
_real_import = builtins.__import__


def _view(name: str) -> types.ModuleType:
    if name not in _made:
        _made[name] = _VIEWS[name]()
    return _made[name]


def _windows_import(name, globals=None, locals=None, fromlist=(), level=0):  # type: ignore[no-untyped-def]
    module = _real_import(name, globals, locals, fromlist, level)
    if level == 0:
        top = name.partition(".")[0]
        if fromlist and name in _VIEWS:
            return _view(name)  # from os import X
        if not fromlist and top in _VIEWS:
            return _view(top)  # import os, import os.path
    return module


WINDOWS_BUILTINS = dict(vars(builtins), __import__=_windows_import)


class _NarrowingLoader(importlib.abc.Loader):
    """The module's own loader, but its code runs with the narrowing `__import__`."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec):  # type: ignore[no-untyped-def]
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__dict__["__builtins__"] = WINDOWS_BUILTINS
        self._loader.exec_module(module)

    def __getattr__(self, name: str) -> object:
        return getattr(self._loader, name)


class _NarrowingFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):  # type: ignore[no-untyped-def]
        if name.partition(".")[0] not in PACKAGES:
            return None
        for finder in sys.meta_path:
            if finder is self or not hasattr(finder, "find_spec"):
                continue
            spec = finder.find_spec(name, path, target)
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "get_code") and spec.origin.endswith(".py"):
                    spec.loader = _NarrowingLoader(spec.loader)
                return spec
        return None


sys.meta_path.insert(0, _NarrowingFinder())
_main = sys.modules.get("__main__")
if _main is not None:  # `python -m MODULE`, `python script.py`: the main code is narrowed too
    _main.__dict__["__builtins__"] = WINDOWS_BUILTINS
