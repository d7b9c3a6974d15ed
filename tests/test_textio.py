"""Reading files with bounds whatever they are (devices, pipes, files without a size), the
streaming segment reader, and strict table parsing (csv/JSON rules, names refused with a message)."""
import io
import json
import os
import threading

import pytest
from hypothesis import given, settings, strategies as hs

from meteor_core import textio
from meteor_core.textio import (MAX_FILE_BYTES, MAX_SEGMENTS, InputError, decode_segments, decode_table,
                                iter_segments, read_capped, read_segments, zip_same_length)

# --- reading with a byte cap, whatever the file is -----------------------------------------


def test_dev_zero_is_refused_after_the_cap_not_read_to_the_end():
    with pytest.raises(InputError, match=r"over the 20 MiB \(20,971,520-byte\) limit"):
        read_segments("/dev/zero")
    with pytest.raises(InputError, match=r"over the 20 MiB \(20,971,520-byte\) limit"):
        list(iter_segments("/dev/zero"))


def test_a_file_reporting_no_size_is_read_up_to_the_cap(tmp_path):
    # /proc files report size 0 but have content: read them, do not trust the size
    assert read_segments("/proc/self/status")[0].startswith("Name:")
    assert read_capped("/proc/self/status", cap=10_000).startswith(b"Name:")
    with pytest.raises(InputError, match="over the"):
        read_capped("/proc/self/status", cap=10)


def test_fifo_with_a_writer_is_read(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def write():
        with open(fifo, "wb") as f:
            f.write(b"one\ntwo\n")

    writer = threading.Thread(target=write)
    writer.start()
    try:
        assert read_segments(fifo) == ["one", "two"]
    finally:
        writer.join(5)


def test_fifo_without_a_writer_gives_up_with_a_message(tmp_path, monkeypatch):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    monkeypatch.setattr(textio, "STREAM_IDLE_SECONDS", 0.3)
    with pytest.raises(InputError, match="no data for 0.3 s"):
        read_segments(fifo)


def test_fifo_sending_forever_is_cut_at_the_cap(tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    stop = threading.Event()

    def write():
        try:
            with open(fifo, "wb") as f:
                while not stop.is_set():
                    f.write(b"y" * 65536)  # one endless line: the byte cap, not the line cap
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=write)
    writer.start()
    try:
        with pytest.raises(InputError, match=r"more than 20,971,520 bytes: over the 20 MiB \(20,971,520-byte\) limit"):
            read_segments(fifo)
    finally:
        stop.set()
        writer.join(5)


def test_directories_and_missing_files(tmp_path):
    with pytest.raises(InputError, match="is a directory"):
        read_segments(tmp_path)
    with pytest.raises(InputError, match="cannot read"):
        iter_segments(tmp_path / "missing")  # raised on the call, before any segment is asked for


def test_regular_file_larger_than_the_cap(tmp_path):
    big = tmp_path / "big.txt"
    with open(big, "wb") as f:
        f.truncate(MAX_FILE_BYTES + 10)  # sparse: costs no disk
    # issue 30, item 17: this read "20.0 MiB is over the 20 MiB limit"
    with pytest.raises(InputError, match=r"big.txt: 20.0 MiB \(20,971,530 bytes\) is over the 20 MiB "
                                         r"\(20,971,520-byte\) limit"):
        read_segments(big)


# --- the streaming reader gives what the whole-file reader gives ------------------------------

LINE_PIECES = ["a", "b c", "", " ", "\r", "é", "東京", "😀", "\ufeff", "x\ry", "\x85", "\u2028"]
file_bytes = hs.lists(hs.sampled_from(LINE_PIECES), max_size=8).flatmap(
    lambda lines: hs.tuples(hs.just(lines), hs.sampled_from(["\n", "\r\n"]), hs.booleans(), hs.booleans())
).map(lambda t: (b"\xef\xbb\xbf" if t[3] else b"") + (t[1].join(t[0]) + (t[1] if t[2] else "")).encode())


def _outcome(read):
    try:
        return read()
    except InputError as exc:
        return f"error: {exc}"


@settings(max_examples=300, deadline=None)
@given(file_bytes, hs.integers(1, 7))
def test_iter_segments_equals_decode_segments(tmp_path_factory, data, chunk):
    path = tmp_path_factory.mktemp("seg") / "f.txt"
    path.write_bytes(data)
    whole = _outcome(lambda: decode_segments(data, str(path)))
    old_chunk = textio.READ_CHUNK
    textio.READ_CHUNK = chunk  # tiny chunks: lines, BOM and CRLF cut across reads
    try:
        streamed = _outcome(lambda: list(iter_segments(path)))
    finally:
        textio.READ_CHUNK = old_chunk
    assert streamed == whole


@pytest.mark.parametrize("data,expected", [
    (b"\xef\xbb\xbfa b\r\nc d\r\n", ["a b", "c d"]),
    (b"a\n\nb", ["a", "", "b"]),
    (b"a\rb\n", ["a\rb"]),  # a bare CR stays inside its segment
    (b"\n", [""]),  # one empty line is one empty segment
])
def test_segment_rules(tmp_path, data, expected):
    (tmp_path / "f").write_bytes(data)
    assert decode_segments(data, "f") == expected == list(iter_segments(tmp_path / "f"))


@pytest.mark.parametrize("data,message", [
    (b"ok\ncaf\xe9\n", "not UTF-8 (byte 0xe9 on line 2)"),
    (b"ok\nok\na\x00b\n", "NUL bytes on line 3"),
    (b"", "empty"),
    (b"\xef\xbb\xbf", "empty"),
])
def test_streaming_errors_name_the_line(tmp_path, data, message):
    (tmp_path / "f").write_bytes(data)
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        list(iter_segments(tmp_path / "f"))


def test_streaming_line_cap(tmp_path, monkeypatch):
    (tmp_path / "f").write_bytes(b"a\n" * 6)
    monkeypatch.setattr(textio, "MAX_SEGMENTS", 5)
    segments = iter_segments(tmp_path / "f")
    assert [next(segments) for _ in range(5)] == ["a"] * 5  # streamed one at a time
    with pytest.raises(InputError, match="over the 5 segment limit"):
        next(segments)


def test_zip_same_length_streams_and_checks_counts():
    assert list(zip_same_length({"h": iter(["a", "b"]), "r": iter(["c", "d"])})) == [("a", "c"), ("b", "d")]
    with pytest.raises(InputError, match=r"line counts differ \(h: 2, r: 3 or more\)"):
        list(zip_same_length({"h": iter(["a", "b"]), "r": iter(["c", "d", "e"])}))
    with pytest.raises(InputError, match=r"line counts differ \(h: 3 or more, r: 2\)"):
        list(zip_same_length({"h": iter(["a", "b", "x"]), "r": iter(["c", "d"])}))


# --- tables: csv and JSON rules, nothing dropped, nothing guessed -----------------------------

def test_quoted_newlines_stay_in_the_cell():
    t = decode_table(b'ref,A,B\n"two\nlines","a ""quoted"" word","x\r\ny"\nc,d,e\n', "t.csv")
    assert t.references == [["two\nlines"], ["c"]]
    assert t.systems == {"A": ['a "quoted" word', "d"], "B": ["x\r\ny", "e"]}


def test_duplicate_headers_are_refused_by_name():
    with pytest.raises(InputError, match=r"duplicate column name\(s\): 'sys' \(columns 2 and 4\)"):
        decode_table(b"ref\tsys\tB\tsys\na\tb\tc\td\n", "t.tsv")
    with pytest.raises(InputError, match=r"line 1 repeats the key\(s\) 'A'"):
        decode_table(b'{"ref": "a", "A": "x", "B": "y", "A": "z"}\n', "t.jsonl")


def test_columns_that_only_look_like_references_are_refused():
    with pytest.raises(InputError, match="'referee'.*not a reference name"):
        decode_table(b"ref,referee,B\na,b,c\n", "t.csv")
    t = decode_table(b"Ref,reference2,ref_3,A,B\n1,2,3,a,b\n", "t.csv")
    assert t.reference_names == ["Ref", "reference2", "ref_3"] and list(t.systems) == ["A", "B"]


def test_two_source_columns_are_refused():
    with pytest.raises(InputError, match="more than one source column"):
        decode_table(b"src,source,ref,A,B\n1,2,3,a,b\n", "t.csv")


@pytest.mark.parametrize("value,kind", [("5", "a number"), ("null", "null"), ("true", "true or false"),
                                        ('["a"]', "a list"), ('{"a": "b"}', "an object")])
def test_json_values_must_be_strings(value, kind):
    data = b'{"ref": "a", "A": "x", "B": "y"}\n{"ref": "a", "A": "x", "B": ' + value.encode() + b"}\n"
    with pytest.raises(InputError, match=f"line 2, column 'B': {kind}"):
        decode_table(data, "t.jsonl")


def test_unbalanced_quote_is_refused_with_the_line():
    with pytest.raises(InputError, match="line 3"):
        decode_table(b'ref\tA\tB\na\tb\tc\n"Hi," she said\tb\tc\n', "t.tsv")


def test_table_row_cap(monkeypatch):
    monkeypatch.setattr(textio, "MAX_SEGMENTS", 3)
    with pytest.raises(InputError, match="over the 3 segment limit"):
        decode_table(b"ref,A,B\n" + b"a,b,c\n" * 4, "t.csv")


def test_a_long_cell_is_not_a_csv_error():
    cell = "word " * 40_000  # over the csv module's default field limit of 131,072 characters
    t = decode_table(f"ref,A,B\n{cell},a,b\n".encode(), "t.csv")
    assert t.references == [[cell]]


# --- fuzz: any table we write the csv/JSON way comes back exactly; no traceback on garbage -----

cell_text = hs.text(hs.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12)
header_names = hs.lists(hs.text(hs.characters(whitelist_categories=("Ll", "Lu", "Nd")), min_size=1, max_size=6)
                        .filter(lambda s: not s.lower().startswith(("ref", "src", "source"))),
                        min_size=2, max_size=4, unique=True)


@settings(max_examples=200, deadline=None)
@given(header_names, hs.integers(1, 2), hs.data(), hs.sampled_from(["csv", "tsv", "jsonl"]))
def test_fuzz_table_round_trip_loses_no_row(systems, n_refs, data, fmt):
    refs = ["ref"] if n_refs == 1 else [f"ref{k + 1}" for k in range(n_refs)]
    header = refs + systems
    rows = data.draw(hs.lists(hs.lists(cell_text, min_size=len(header), max_size=len(header)),
                              min_size=1, max_size=6))
    if fmt == "jsonl":
        raw = "\n".join(json.dumps(dict(zip(header, row)), ensure_ascii=data.draw(hs.booleans())) for row in rows)
    else:
        import csv
        out = io.StringIO()
        csv.writer(out, delimiter="\t" if fmt == "tsv" else ",", lineterminator=data.draw(
            hs.sampled_from(["\n", "\r\n"])), quoting=csv.QUOTE_ALL).writerows([header] + rows)
        raw = out.getvalue()
    table = decode_table(raw.encode(), f"t.{fmt}")
    assert table.references == [row[:n_refs] for row in rows]
    assert table.systems == {name: [row[n_refs + k] for row in rows] for k, name in enumerate(systems)}


@settings(max_examples=300, deadline=None)
@given(hs.binary(max_size=200) | hs.text(max_size=200).map(str.encode), hs.sampled_from(["csv", "tsv", "jsonl", "txt"]))
def test_fuzz_table_parser_never_raises_anything_but_input_error(data, ext):
    try:
        table = decode_table(data, f"t.{ext}")
    except InputError:
        return
    n = len(table.references)
    assert n >= 1 and all(len(v) == n for v in table.systems.values()) and len(table.systems) >= 2


def test_cli_refuses_dev_zero_and_a_silent_fifo_in_one_line(tmp_path):
    import subprocess
    import sys

    from conftest import ROOT

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for args, message in [(["--hyp", "/dev/zero", "--ref", "/dev/zero"], "over the 20 MiB (20,971,520-byte) limit"),
                          (["compare", "--table", "/dev/zero"], "over the 20 MiB (20,971,520-byte) limit"),
                          (["--hyp", str(fifo), "--ref", str(fifo)], "no data for 0.5 s")]:
        out = subprocess.run([sys.executable, "-c", "import sys; from meteor_core import textio; "
                              "textio.STREAM_IDLE_SECONDS = 0.5; from meteor_core.cli import main; sys.exit(main())",
                              *args], cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and message in out.stderr, out.stderr
        assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
