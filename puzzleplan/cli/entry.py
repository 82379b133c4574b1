"""The ``puzzleplan`` program's start: the console script and ``python -m puzzleplan.cli``.

Loading the commands takes a few tenths of a second (click, the registry, the commands and what
they import); a Ctrl-C in that time raised KeyboardInterrupt inside some import, a traceback and
exit code 1.  Importing this module starts the program: from its first lines until the group's
own handling takes over (:class:`~.common.Group`), a Ctrl-C or a SIGTERM ends the process at once
with one line and exit code 130 or 143, since nothing has started yet that would need stopping.  It imports
nothing before that is in place: ``_signal`` is the C module under ``signal``, in place at once
(``signal`` builds its enums first, a millisecond or two).
"""
import _signal
import os


def _stop(signum, frame):
    os.write(2, b"puzzleplan: interrupted\n")
    os._exit(128 + signum)


_stop.until_loaded = True       # the handler Group.main replaces by the commands' own

if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:     # not ignored (a background job)
    _signal.signal(_signal.SIGINT, _stop)
if _signal.getsignal(_signal.SIGTERM) == _signal.SIG_DFL:
    _signal.signal(_signal.SIGTERM, _stop)


def main():
    from .commands import main as commands
    commands()
