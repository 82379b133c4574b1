"""Readers and writers: round trips, and clear one-line errors on bad input."""
import pytest

from conftest import INSTANCES
from puzzleplan.families.knights import fileformat as knights
from puzzleplan.families.sliding import rushhour, slide
from puzzleplan.families.sokoban import xsb
from puzzleplan.formats.load import load
from puzzleplan.puzzle import PuzzleError

pytestmark = pytest.mark.smoke       # in the quick loop: pytest -m smoke

KLOTSKI = (INSTANCES / "seeds/klotski_seed000.slide").read_text()


def test_slide_round_trip():
    spec = slide.parse(KLOTSKI)
    assert slide.parse(slide.write(spec)) == spec
    assert spec.rows() == ["aAAb", "aAAb", "cBBd", "cefd", "g..h"]


def test_rush_hour_round_trip_and_both_seed_encodings_agree():
    v1 = load(INSTANCES / "seeds/rushhour_card40_bmodel_v1.rh").spec
    v2 = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").spec
    card40 = load(INSTANCES / "rushhour/thinkfun40.rh", 40).spec
    shapes = lambda s: sorted((sorted(c), s.axes[lb]) for lb, c in s.pieces.items() if lb != "A")
    assert shapes(v1) == shapes(v2) == shapes(card40)
    assert v1.pieces["A"] == v2.pieces["A"] == card40.pieces["A"]
    board = rushhour.write_board(v2)
    assert rushhour.parse_board(board) == rushhour.parse_board(board.replace("o", "."))


def test_rush_hour_seed_v2_matches_the_b_model_constants():
    # seed 002, new model: sizes, axes, col, row of cars 1..13 (13 = red)
    sze = [2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 2]
    axis = "vvvvvhhhhvvhh"
    col = [1, 2, 2, 3, 4, 0, 1, 3, 4, 0, 5, 0, 3]
    row = [1, 1, 4, 3, 0, 5, 0, 5, 4, 0, 1, 3, 2]
    cars = sorted(sorted((col[i] + (k if axis[i] == "h" else 0), row[i] + (k if axis[i] == "v" else 0))
                         for k in range(sze[i])) for i in range(13))
    spec = load(INSTANCES / "seeds/rushhour_card40_bmodel_v2.rh").spec
    assert sorted(sorted(c) for c in spec.pieces.values()) == cars
    free = {(0, 3), (1, 3), (0, 5), (3, 4), (4, 0), (4, 1), (5, 5)}
    occupied = set().union(*spec.pieces.values())
    assert {(c, r) for r, c in free} == {(x, y) for x in range(6) for y in range(6)} - occupied


def test_xsb_collection_round_trip():
    text = (INSTANCES / "sokoban/Microban.txt").read_text()
    level, count = xsb.parse(text, 3)
    assert count == 155 and level.title == "3"
    again, _ = xsb.parse(xsb.write(level))
    assert again.walls == level.walls and again.boxes == level.boxes and again.player == level.player


def test_knights_round_trip():
    spec = knights.parse((INSTANCES / "seeds/knights_seed003.knights").read_text())
    assert knights.parse(knights.write(spec)) == spec
    assert spec.rows()[-1] == "#B####G#"


def test_lurd():
    assert xsb.parse_lurd("ulL Dr\n") == list("ulLDr")
    with pytest.raises(PuzzleError, match="LURD"):
        xsb.parse_lurd("ulx")


BAD = {
    "slide": [
        ("board:\nAA.\nA?.\n\ngoal:\nAA.\n...\n", "unknown character"),
        ("board:\nAB.\nA..\n\ngoal:\n.B.\n", "goal has 1 rows"),
        ("board:\nA.A\n...\n\ngoal:\nA.A\n...\n", "not connected"),
        ("board:\nAB.\n...\n", "no goal"),
        ("board:\nAB.\n..\n\ngoal:\n...\n...\n", "row has 2 cells"),
        ("board:\nAB.\n...\n\ngoal:\n..C\n...\n", "not on the board"),
        ("board:\nAA.\n...\n\ngoal:\n..A\n..A\n", "does not have its shape"),
        ("board:\nAB.\n...\n\ngoal:\n.A.\n...\naxes: A=d\n", "axes entry"),
        ("colour: red\nboard:\nAB.\n", "unknown section"),
    ],
    "rh": [
        ("AAoooo" * 6 + "\n", "car A has"),
        ("BBoooo" * 2 + "AAoooo" + "BBoooo" * 3 + "\n", "car B has 10 cells"),
        ("oooooo" * 2 + "AAoooo" + "oooooo" * 2 + "ooooo\n", "36 characters"),
        ("ooBooo" "ooBBoo" "AAoooo" + "oooooo" * 3 + "\n", "off its axis"),
        ("oooooo" * 2 + "oAAooo" + "ooo?oo" + "oooooo" * 2 + "\n", "unknown character"),
        ("oooooo" * 6 + "\n", "no red car"),
        ("oooooo" * 2 + "ooooAA" + "oooooo" * 3 + " 12\n", "expected a 36-character board"),
        ("ooAooo" "ooAooo" + "oooooo" * 4 + "\n", "must be horizontal"),
    ],
    "xsb": [
        ("#####\n#@$.#\n#@  #\n#####\n", "two players"),
        ("#####\n# $.#\n#   #\n#####\n", "no player"),
        ("#####\n#@$.#\n# $ #\n#####\n", "2 boxes but 1 storage"),
        ("#####\n#@$.#\n# X #\n#####\n", "unknown character"),
        ("#####\n#@ .#\n#####\n", "no boxes"),
        ("; nothing here\n", "no Sokoban level"),
    ],
    "knights": [
        ("board:\nW.W\n...\nB.B\n", "no goal"),
        ("board:\nW.W\n..\nB.B\n\ntarget:\nB.B\n...\nW.W\n", "row has 2 squares"),
        ("board:\nW.W\n...\nB.B\n\ngoal: W@z9\n", "not on the board"),
        ("board:\nW.W\n...\nB.B\n\ngoal: X@a1\n", "not on the board"),
        ("board:\nW.W\n...\nB?B\n\ntarget:\nB.B\n...\nW.W\n", "unknown character"),
        ("board:\nW.W\n...\nB.B\n\ngoal: W.moves~3\n", "not a move count"),
        ("board:\n...\n...\n\ntarget:\n...\n...\n", "no knights"),
    ],
}
SUFFIX = {"slide": ".slide", "rh": ".rh", "xsb": ".xsb", "knights": ".knights"}


@pytest.mark.parametrize("fmt,text,problem", [(f, t, p) for f, cases in BAD.items() for t, p in cases])
def test_bad_input_gives_one_clear_line(write, fmt, text, problem):
    path = write("bad" + SUFFIX[fmt], text)
    with pytest.raises(PuzzleError) as info:
        load(path)
    message = str(info.value)
    assert problem in message and message.startswith(path) and "\n" not in message


def test_error_names_the_line(write):
    path = write("bad.slide", "; a comment\nboard:\nAB.\nA?.\n\ngoal:\n.B.\n...\n")
    with pytest.raises(PuzzleError, match=r"bad.slide:4: unknown character '\?'"):
        load(path)


def test_huarong_bad_boards(write):
    for board, problem in [("HAAIHAAIJBBKJNOKP@@", "20 characters"), ("HBBIHBBIJBBKJNOKP@@Q", "2x2 block"),
                           ("HAAIHAAIJBBKJNOKP@QQ", "exactly 2 empty"), ("HAAIHAAIJB?KJNOKP@@Q", "unknown character"),
                           ("HAAIHAAIJBBKJNOHP@@Q", "not connected")]:
        with pytest.raises(PuzzleError, match=problem):
            load(write("b.hrd", board + "\n"))


def test_unknown_level_and_extension(write):
    with pytest.raises(PuzzleError, match="unknown level number 41"):
        load(INSTANCES / "rushhour/thinkfun40.rh", 41)
    with pytest.raises(PuzzleError, match="unknown file type"):
        load(write("x.pdf", ""))


@pytest.mark.parametrize("name, text", [
    ("bom.slide", "board:\nA.\ngoal:\n.A\n"),
    ("bom.xsb", "#####\n#@$.#\n#####\n"),
    ("bom.knights", "board:\nW.W\n...\nB.B\n\ntarget:\nB.B\n...\nW.W\n"),
])
def test_a_byte_order_mark_is_not_part_of_the_text(tmp_path, name, text):
    """Some editors begin UTF-8 files with a byte-order mark: the file reads as without it."""
    plain, marked = tmp_path / ("plain-" + name), tmp_path / name
    plain.write_text(text)
    marked.write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert load(marked).rules.initial == load(plain).rules.initial


def test_cell_names_past_the_26th_column_read_back():
    """Columns a..z, then aa, ab... (as spreadsheets count): a knights board 300 files wide named
    its squares by characters past z, and the replay refused its own plan."""
    from puzzleplan.cells import cell_name, parse_cell
    assert [cell_name((x, 0)) for x in (0, 25, 26, 27, 52, 701, 702)] == ["a1", "z1", "aa1", "ab1", "ba1", "zz1",
                                                                         "aaa1"]
    for x in range(0, 20000, 7):
        assert parse_cell(cell_name((x, 41))) == (x, 41)
    assert parse_cell("AB3") == (27, 2)
    for bad in ("ü113", "aaaaa1", "a0", "1a", "a1234567"):
        with pytest.raises(PuzzleError):
            parse_cell(bad)


def test_a_knight_past_the_26th_file_moves_and_replays():
    from puzzleplan.families.knights.rules import Alternative, Knights, KnightsSpec
    from puzzleplan.search import astar_search
    squares = frozenset((x, y) for x in range(30) for y in range(3))
    spec = KnightsSpec(30, 3, squares, (("A", (25, 0)),), (Alternative((("A", (29, 2)),)),), "wide")
    domain = Knights(spec)
    r = astar_search(domain, "steps")
    assert r.length == 2 and r.steps[-1].endswith("ad3") and domain.replay(r.steps).solved
