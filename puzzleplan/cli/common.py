"""What every command shares: one-line errors (exit code 2), the group that turns usage
errors and Ctrl-C into one line, parameter types, and the options several commands take."""
from __future__ import annotations

import functools
import json
import math
import os
import signal
import sys

import click

from ..limits import MIN_MEMORY_MB
from ..puzzle import PuzzleError
from .outcomes import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_MEMOUT, EXIT_TERMINATED


class Fail(click.ClickException):
    exit_code = EXIT_BAD_INPUT

    def show(self, file=None):
        click.echo(f"puzzleplan: error: {self.message}", err=True)


class Seconds(click.ParamType):
    """A time limit: a finite number of seconds above zero and at most ``limits.MAX_SECONDS``
    (``nan``, ``inf``, ``0`` and below are refused, click.FloatRange lets ``nan`` through; past
    the maximum the system's timers overflow)."""

    name = "seconds"

    def convert(self, value, param, ctx):
        from ..limits import MAX_SECONDS
        try:
            seconds = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_SECONDS:
            self.fail(f"{value!r}: give a number of seconds above 0 and at most {MAX_SECONDS:,} (11.6 days)", param, ctx)
        return seconds


SECONDS = Seconds()
MEMORY = click.IntRange(min=MIN_MEMORY_MB)      # MiB: --memory of the commands and of bench's runs


class MethodChoice(click.Choice):
    """The methods of one kind (``search``...) as click's choices, read from the registry when the
    option is parsed or shown, not when the command line loads: a method plug-in that does not
    load then stops only the commands that need the methods, in one line, as a family plug-in
    does."""

    def __init__(self, kind: str):
        self.kind, self.case_sensitive = kind, True

    @property
    def choices(self) -> tuple[str, ...]:
        from .. import methods
        return tuple(methods.names(self.kind))


class Described(click.Option):
    """An option whose help is made (``describe()``) when it is shown, not when the command line
    loads: the methods it names come from the registry (see :class:`MethodChoice`)."""

    def __init__(self, *args, describe, **kwargs):
        self.describe = describe
        super().__init__(*args, **kwargs)

    @property
    def help(self) -> str:
        return self.describe()

    @help.setter
    def help(self, value) -> None:
        pass
AT_LEAST_0 = click.IntRange(min=0)
AT_LEAST_1 = click.IntRange(min=1)


class Group(click.Group):
    """Usage errors (a bad option value, a missing argument) also give one line and exit 2,
    like every other bad input, not click's usage block."""

    def main(self, args=None, prog_name=None, complete_var=None, standalone_mode=True, **extra):
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode, **extra)
        argv = list(sys.argv[1:] if args is None else args)
        if args is None:        # a process of its own: its time limit counts from its start
            from .. import limits
            limits.start_run()
            limits.hold()
            for name, value in limits.BLAS_THREADS.items():     # before numpy loads, in us or a child
                os.environ.setdefault(name, value)
        try:
            if args is None:
                take_over_signals()
            code = super().main(argv, prog_name, complete_var, False, **extra)
        except SystemExit as err:       # a command's own exit code
            code = err.code if isinstance(err.code, int) else (0 if err.code is None else 1)
            leave(code, err.code, huge=code == EXIT_MEMOUT)
        except click.ClickException as err:
            if isinstance(err, click.UsageError) and "--json" in argv:
                click.echo(json.dumps({"status": "error", "message": err.format_message()}))
            else:
                click.echo(f"puzzleplan: error: {err.format_message()}", err=True)
            sys.exit(err.exit_code)
        except PuzzleError as err:      # while an option was parsed or shown (a plug-in that does not load)
            if "--json" in argv:
                click.echo(json.dumps({"status": "error", "message": str(err)}))
            else:
                click.echo(f"puzzleplan: error: {err}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except (click.exceptions.Abort, KeyboardInterrupt):
            click.echo("puzzleplan: interrupted", err=True)
            leave(EXIT_INTERRUPTED)
        except (MemoryError, ImportError, OSError, RuntimeError) as err:    # outside a solver or search,
            from ..limits import memout_message, out_of_memory              # which report what they proved
            if not out_of_memory(err):      # a library that did not load, a thread not started, for want of memory
                raise
            import gc
            gc.collect()
            message = memout_message()
            if "--json" in argv:
                click.echo(json.dumps({"status": "memout", "message": message}))
            else:
                click.echo(f"puzzleplan: memout: {message}", err=True)
            leave(EXIT_MEMOUT, huge=True)       # what filled the memory is not freed object by object
        leave(code or 0)

    def make_context(self, info_name, args, parent=None, **extra):
        """A Ctrl-C while the command line is read: one line and exit code 130 (click's own
        answer puts an empty line before it)."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:
            click.echo("puzzleplan: interrupted", err=True)
            sys.exit(EXIT_INTERRUPTED)

    def invoke(self, ctx):
        """Ctrl-C anywhere outside a solver or search (which report what they proved)
        ends the command with exit code 130 and one line."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo("puzzleplan: interrupted", err=True)
            ctx.exit(EXIT_INTERRUPTED)


def take_over_signals() -> None:
    """In a process of its own, once the commands are loaded: a Ctrl-C raises KeyboardInterrupt
    again, which the commands answer with what they proved (the program's start,
    :mod:`.entry`, ended the process on one while they loaded), and SIGTERM does the same."""
    from .. import limits
    if getattr(signal.getsignal(signal.SIGINT), "until_loaded", False):
        signal.signal(signal.SIGINT, signal.default_int_handler)
    limits.terminate_as_interrupt()


HUGE_HEAP = 1_000_000     # objects set aside by load_instance (gc.freeze) above which exit is immediate


def leave(code: int, status=None, huge: bool = False) -> None:
    """Exit with ``code`` (``sys.exit(status)`` when given; 143 for 130 after a SIGTERM).  After a huge board (millions of
    objects), or a run stopped at its time or memory limit (``huge``) while it was building one,
    the interpreter would free them one by one for seconds (a minute after a memout), past the
    time limit: the process ends at once instead, its exit handlers run and its output flushed (nothing else is pending: every file and
    pool is closed by then).  Not inside a test runner, which shares the process."""
    import gc
    from .. import limits
    if code == EXIT_INTERRUPTED and limits.terminated():       # stopped by SIGTERM, as a Ctrl-C
        code, status = EXIT_TERMINATED, None
    if (huge or gc.get_freeze_count() > HUGE_HEAP or limits.held()) and sys.stdout is sys.__stdout__:
        import atexit
        try:
            atexit._run_exitfuncs()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(code)
    sys.exit(code if status is None else status)


def fail(err: Exception, as_json: bool = False):
    if as_json:
        click.echo(json.dumps({"status": "error", "message": str(err)}))
        sys.exit(EXIT_BAD_INPUT)
    raise Fail(str(err))


def level_option(f):
    return click.option("--level", "-l", type=int, default=None, help="Level number in a collection (1-based).")(f)


def domain_option(f):
    """--domain FILE, --levers LIST and --grounder, handed to the command as ``options`` (what
    a format's reader takes)."""
    @functools.wraps(f)
    def wrapper(*args, domain=None, levers=None, grounder=None, **kwargs):
        return f(*args, options={"domain": domain, "levers": levers, "grounder": grounder}, **kwargs)

    wrapper = click.option("--grounder", type=click.Choice(["own", "translator"]), default=None,
                           help="PDDL: who grounds the task: our own grounder (the default; plain STRIPS "
                                "with types, equality and constant action costs, else the translator) or "
                                "always Fast Downward's translator.")(wrapper)

    wrapped = click.option("--levers", default=None, metavar="LIST",
                           help="PDDL: what is added to the grounded task's search and SAT encoding: "
                                "bound, mutex, inverse, tallies, order (once a run "
                                "proves hard), walk (under cost, a walk of cost 0 in one transition), symmetry "
                                "(interchangeable objects touched in one order), factor (a move times its counter's "
                                "step as two literals) by default, "
                                "shortcut, counts (off by default); changes like +counts,-mutex; or none.")(wrapper)
    return click.option("--domain", type=click.Path(dir_okay=False), default=None,
                        help="PDDL: the domain file of the problem FILE (default: domain.pddl beside it).")(wrapped)


def _sizes(ctx, param, value):
    """``--patterns``'s value: whole numbers of 1 or more joined by '-' (``6-6-3``)."""
    if value is None:
        return None
    parts = value.split("-")
    if not all(p.isdigit() and int(p) >= 1 for p in parts):
        raise click.BadParameter(f"{value!r}: sizes of 1 or more joined by '-', e.g. 6-6-3")
    return tuple(int(p) for p in parts)


def patterns_option(f):
    """--patterns SIZES, handed to the command as ``patterns`` (a tuple, or None)."""
    return click.option("--patterns", default=None, metavar="SIZES", callback=_sizes,
                        help="Tile puzzles: the pattern databases' sizes, e.g. 6-6-3 (the 15-puzzle's strongest: "
                             "about 5 CPU minutes and 1 GB to make once, then read from the disk cache; "
                             "a make cut by --time-limit is not kept). Default 4-4-4-3 there.")(f)


def patterned(inst, sizes, metric):
    """``inst`` with its rules' pattern databases parted into ``sizes`` (``--patterns``)."""
    from ..puzzle import check_metric
    if sizes:
        inst.problem.rules.use_patterns(sizes, check_metric(inst.problem, metric))
    return inst


def memory_option(f):
    """--memory MiB: the process's address space is capped during the command's work (children
    it starts inherit the cap; the cap before is restored after); running out is ``memout``,
    exit code 5."""
    @functools.wraps(f)
    def wrapper(*args, memory_mb=None, **kwargs):
        from ..limits import memory_limit
        with memory_limit(memory_mb):
            return f(*args, **kwargs)

    from ..limits import DEFAULT_MEMORY_MB
    from .outcomes import EXIT_MEMOUT
    return click.option("--memory", "memory_mb", type=MEMORY, default=DEFAULT_MEMORY_MB,
                        show_default=True, metavar="MiB",
                        help=f"Memory for the whole run (address space, MiB, at least {MIN_MEMORY_MB}); running "
                             f"out answers memout (exit code {EXIT_MEMOUT}).")(wrapper)


def json_option(f):
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(f)


def metric_option(f):
    return click.option("--metric", "-m", default=None,
                        help="How plans are counted (default: the family's first metric); "
                             "'puzzleplan families' lists each family's metrics.")(f)


def counts_option(f):
    """Side-condition options, handed to the command as one ``constraints`` list of texts."""
    @functools.wraps(f)
    def wrapper(*args, moves=(), frozen=(), avoid=(), ends=(), constraint=(), **kwargs):
        texts = [f"{p}.frozen" for p in frozen] + list(constraint)
        for item in moves:
            for op in (">=", "<=", "="):
                if op in item:
                    piece, _, k = item.partition(op)
                    texts.append(f"{piece}.moves{op}{k}")
                    break
            else:
                fail(PuzzleError(f"--moves {item!r}: write PIECE=K, PIECE>=K or PIECE<=K (PIECE may be A+B)"),
                     kwargs.get("as_json", False))
        for flag, items, key in (("--avoid", avoid, "avoid"), ("--ends", ends, "ends")):
            for item in items:
                piece, sep, cells = item.partition(":")
                if not sep or not piece:
                    fail(PuzzleError(f"{flag} {item!r}: write PIECE:CELLS, like A:c3,d4"), kwargs.get("as_json", False))
                texts.append(f"{piece}.{key}={cells}")
        return f(*args, constraints=texts, **kwargs)

    options = [
        click.option("--moves", multiple=True, metavar="PIECE{=,>=,<=}K",
                     help="Moves a piece must make, e.g. --moves 'A>=3'; a group's total: --moves 'A+B<=5'; every "
                          "piece, each on its own: --moves '*>=1' (quote it: > and < are redirections in a "
                          "shell, * a file pattern)."),
        click.option("--frozen", multiple=True, metavar="PIECE", help="A piece that never moves."),
        click.option("--avoid", multiple=True, metavar="PIECE:CELLS",
                     help="Cells a piece may never occupy, e.g. --avoid A:c3,d4 ('*' = every piece; "
                          "Sokoban: player or boxes). Cells: column letter, row from the top "
                          "(knights: algebraic)."),
        click.option("--ends", multiple=True, metavar="PIECE:CELLS",
                     help="Cells a piece must finish within, e.g. --ends A:e3,e4 (Sokoban: player)."),
        click.option("--constraint", "-c", multiple=True, metavar="TEXT",
                     help="A constraint as written in a file, e.g. -c 'A.moves>=3' -c B.frozen."),
    ]
    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


def animation_option(f):
    """--gif/--html/--mp4 OUT and --force, handed to the command as ``animations``: the
    outputs (``{kind: path}``) and the force flag, checked before any work is done."""
    @functools.wraps(f)
    def wrapper(*args, gif=None, html=None, mp4=None, force=False, **kwargs):
        from ..animate import check_targets
        targets = {kind: path for kind, path in (("gif", gif), ("html", html), ("mp4", mp4)) if path}
        try:
            check_targets(targets, force)
        except PuzzleError as err:
            fail(err, kwargs.get("as_json", False))
        return f(*args, animations=(targets, force), **kwargs)

    for option in reversed([
            click.option("--gif", type=click.Path(dir_okay=False), help="Write an animated GIF of the plan."),
            click.option("--html", type=click.Path(dir_okay=False),
                         help="Write a self-contained HTML page that plays the plan."),
            click.option("--mp4", type=click.Path(dir_okay=False), help="Write an MP4 video of the plan (imageio-ffmpeg)."),
            click.option("--force", is_flag=True, help="Overwrite existing animation files.")]):
        wrapper = option(wrapper)
    return wrapper


