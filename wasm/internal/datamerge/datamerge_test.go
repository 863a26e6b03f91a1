package datamerge

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// Hand-built modules.

func leb(v uint32) []byte { return appendU32(nil, v) }

func sec(id byte, body []byte) []byte { return appendSection(nil, id, body) }

func mod(secs ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range secs {
		m = append(m, s...)
	}
	return m
}

// active is a segment with flags 0 at i32.const off.
func active(off int32, data string) []byte {
	b := []byte{0x00, 0x41}
	b = appendS32(b, off)
	b = append(b, 0x0b)
	b = append(b, leb(uint32(len(data)))...)
	return append(b, data...)
}

// dataSec is a Data section of the encoded segments.
func dataSec(segs ...[]byte) []byte {
	b := leb(uint32(len(segs)))
	for _, s := range segs {
		b = append(b, s...)
	}
	return sec(sectionData, b)
}

func custom(name, payload string) []byte {
	return sec(0, append(append(leb(uint32(len(name))), name...), payload...))
}

var (
	typeSec   = sec(1, []byte{1, 0x60, 0, 0})                       // one type: [] -> []
	funcSec   = sec(3, []byte{1, 0})                                // one function of type 0
	memSec    = sec(5, []byte{1, 0, 1})                             // one memory, 1 page
	codeSec   = sec(sectionCode, []byte{1, 2, 0, 0x0b})             // its body: no locals, end
	dropCode  = sec(sectionCode, []byte{1, 5, 0, 0xfc, 9, 0, 0x0b}) // data.drop 0
	countSec1 = func(n uint32) []byte { return sec(sectionDataCount, leb(n)) }
)

// image is the memory a module's segments leave, as its runs of non-zero bytes in address
// order: the same for two modules when instantiating either leaves the same memory. (It
// assumes the segments do not overlap, which Merge checks.)
func image(t testing.TB, segs []Segment) []Segment {
	t.Helper()
	sorted := append([]Segment(nil), segs...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Offset < sorted[j].Offset })
	var runs []Segment
	for _, s := range sorted {
		for i, c := range s.Data {
			if c == 0 {
				continue
			}
			at := s.Offset + uint32(i)
			if n := len(runs); n > 0 && runs[n-1].End() == uint64(at) {
				runs[n-1].Data = append(runs[n-1].Data, c)
			} else {
				runs = append(runs, Segment{Offset: at, Data: []byte{c}})
			}
		}
	}
	return runs
}

// sameImage fails t unless the segments leave the same memory and every merged segment starts
// where an original one starts and ends where one ends (so that instantiation fails, for a
// memory too small, where it failed), and every original lies within a merged one.
func sameImage(t testing.TB, orig, merged []Segment) {
	t.Helper()
	a, b := image(t, orig), image(t, merged)
	if len(a) != len(b) {
		t.Fatalf("memory image: %d runs of non-zero bytes, merged %d", len(a), len(b))
	}
	for i := range a {
		if a[i].Offset != b[i].Offset || !bytes.Equal(a[i].Data, b[i].Data) {
			t.Fatalf("memory image: run %d differs: %#x+%d, merged %#x+%d", i, a[i].Offset, len(a[i].Data), b[i].Offset, len(b[i].Data))
		}
	}
	starts, ends := map[uint64]bool{}, map[uint64]bool{}
	for _, s := range orig {
		starts[uint64(s.Offset)], ends[s.End()] = true, true
	}
	for _, m := range merged {
		if !starts[uint64(m.Offset)] || !ends[m.End()] {
			t.Fatalf("merged segment [%#x, %#x) does not start and end where originals do", m.Offset, m.End())
		}
	}
	for _, s := range orig {
		i := sort.Search(len(merged), func(i int) bool { return merged[i].End() >= s.End() })
		if i == len(merged) || merged[i].Offset > s.Offset {
			t.Fatalf("segment [%#x, %#x) is not within a merged segment", s.Offset, s.End())
		}
	}
}

// nonData is the module's sections other than Data and DataCount, as bytes.
func nonData(t testing.TB, m []byte) [][]byte {
	t.Helper()
	secs, err := parseSections(m)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]byte
	for _, s := range secs {
		if s.id != sectionData && s.id != sectionDataCount {
			out = append(out, m[s.start:s.end])
		}
	}
	return out
}

// checkMerged checks what Merge promises of out, merged from in with maxGap: it parses, leaves
// the same memory, keeps every other section byte for byte, splits only at gaps past maxGap,
// its DataCount (if any) counts its segments, and merging it again changes nothing.
func checkMerged(t testing.TB, in, out []byte, st Stats, maxGap int) {
	t.Helper()
	orig, err := Segments(in)
	if err != nil {
		t.Fatalf("Segments(in): %v", err)
	}
	merged, err := Segments(out)
	if err != nil {
		t.Fatalf("Segments(merged): %v", err)
	}
	if st.Segments != len(orig) || st.MergedSegments != len(merged) || st.Size != len(in) || st.MergedSize != len(out) {
		t.Fatalf("stats %+v: want %d -> %d segments, %d -> %d B", st, len(orig), len(merged), len(in), len(out))
	}
	sameImage(t, orig, merged)
	for i := 1; i < len(merged); i++ {
		if merged[i].Offset < merged[i-1].Offset {
			t.Fatal("merged segments are not in address order")
		}
		if gap := uint64(merged[i].Offset) - merged[i-1].End(); maxGap < 0 || gap <= uint64(maxGap) {
			t.Fatalf("merged segments %d and %d are split at a gap of %d B (maxGap %d)", i-1, i, gap, maxGap)
		}
	}
	a, b := nonData(t, in), nonData(t, out)
	if len(a) != len(b) {
		t.Fatalf("%d other sections, merged %d", len(a), len(b))
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			t.Fatalf("section %d (id %d) changed", i, a[i][0])
		}
	}
	secs, _ := parseSections(out)
	for _, s := range secs {
		if s.id == sectionDataCount {
			r := reader{b: out[:s.end], pos: s.body}
			if n, _ := r.u32(); int(n) != len(merged) {
				t.Fatalf("DataCount %d, %d segments", n, len(merged))
			}
		}
	}
	again, _, err := Merge(out, maxGap)
	if err != nil {
		t.Fatalf("merging the merged module: %v", err)
	}
	if !bytes.Equal(again, out) {
		t.Fatal("merging the merged module changed it")
	}
}

func TestMerge(t *testing.T) {
	in := mod(custom("first", "x"), typeSec, funcSec, memSec, codeSec,
		dataSec(active(100, "cc"), active(0, "a\x00b"), active(40, "bbbb"), active(10, "z")),
		custom("producers", "yz"))
	out, st, err := Merge(in, DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	checkMerged(t, in, out, st, DefaultMaxGap)
	segs, _ := Segments(out)
	want := make([]byte, 102)
	copy(want, "a\x00b")
	want[10] = 'z'
	copy(want[40:], "bbbb")
	copy(want[100:], "cc")
	if len(segs) != 1 || segs[0].Offset != 0 || !bytes.Equal(segs[0].Data, want) {
		t.Fatalf("merged %+v, want one segment at 0 of %q", segs, want)
	}
	if st.DataBytes != 10 || st.MergedBytes != 102 {
		t.Fatalf("stats %+v", st)
	}
	wantOut := mod(custom("first", "x"), typeSec, funcSec, memSec, codeSec, dataSec(active(0, string(want))), custom("producers", "yz"))
	if !bytes.Equal(out, wantOut) {
		t.Fatalf("merged module\n% x\nwant\n% x", out, wantOut)
	}
}

func TestMergeSplitsAtLongGaps(t *testing.T) {
	in := mod(memSec, dataSec(active(0, "ab"), active(12, "c"), active(30, "d"), active(1000, "e")))
	for _, tc := range []struct {
		maxGap int
		want   []uint32 // offsets of the merged segments
	}{
		{-1, []uint32{0}},
		{0, []uint32{0, 12, 30, 1000}},
		{9, []uint32{0, 12, 30, 1000}},
		{10, []uint32{0, 30, 1000}}, // the gap [2, 12) is 10 B: filled
		{17, []uint32{0, 1000}},
		{968, []uint32{0, 1000}},
		{969, []uint32{0}},
	} {
		out, st, err := Merge(in, tc.maxGap)
		if err != nil {
			t.Fatal(err)
		}
		checkMerged(t, in, out, st, tc.maxGap)
		segs, _ := Segments(out)
		var got []uint32
		for _, s := range segs {
			got = append(got, s.Offset)
		}
		if !equal(got, tc.want) {
			t.Errorf("maxGap %d: segments at %v, want %v", tc.maxGap, got, tc.want)
		}
	}
}

func equal(a, b []uint32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestMergeDataCount(t *testing.T) {
	in := mod(typeSec, funcSec, memSec, countSec1(3), codeSec, dataSec(active(8, "a"), active(0, "b"), active(40, "c")))
	out, st, err := Merge(in, DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	checkMerged(t, in, out, st, DefaultMaxGap)
	if !bytes.Contains(out, countSec1(1)) || st.MergedSegments != 1 {
		t.Fatalf("DataCount not set to 1: % x", out)
	}
	// Without a DataCount, the code cannot use data.drop or memory.init: a 0xfc 9 is something else.
	in = mod(typeSec, funcSec, memSec, dropCode, dataSec(active(8, "a"), active(0, "b")))
	if _, _, err := Merge(in, DefaultMaxGap); err != nil {
		t.Fatal(err)
	}
}

func TestMergeAccepts(t *testing.T) {
	for name, in := range map[string][]byte{
		// flags 2, memory 0: active, written out as flags 0.
		"explicit memory 0": mod(dataSec([]byte{2, 0, 0x41, 4, 0x0b, 1, 'x'}, active(0, "y"))),
		// LEB128 that is not the shortest, as Go writes section sizes.
		"padded LEB128": mod([]byte{sectionData, 0x8c, 0x80, 0x80, 0x80, 0x00, 0x81, 0x00, 0x00, 0x41, 0x85, 0x80, 0x00, 0x0b, 0x81, 0x80, 0x00, 'x'}),
		// i32.const -1 is offset 0xffffffff: the last byte of a 4 GiB memory.
		"negative offset":    mod(dataSec(active(-1, "x"), active(-10, "y"))),
		"empty data section": mod(memSec, dataSec()),
		"no data section":    mod(typeSec, custom("c", "")),
		"header only":        mod(),
		"repeated custom":    mod(custom("a", ""), custom("a", ""), dataSec(active(1, "x"))),
		"unknown section":    mod(sec(13, []byte{0}), dataSec(active(1, "x"))),
	} {
		t.Run(name, func(t *testing.T) {
			out, st, err := Merge(in, DefaultMaxGap)
			if err != nil {
				t.Fatal(err)
			}
			checkMerged(t, in, out, st, DefaultMaxGap)
			if st.Segments == 0 && !bytes.Equal(out, in) {
				t.Fatal("a module without segments changed")
			}
		})
	}
	out, _, _ := Merge(mod(dataSec(active(-1, "x"), active(-10, "y"))), DefaultMaxGap)
	if segs, _ := Segments(out); len(segs) != 1 || segs[0].Offset != math.MaxUint32-9 || len(segs[0].Data) != 10 {
		t.Fatalf("negative offsets: %+v", segs)
	}
}

func TestMergeRefuses(t *testing.T) {
	seg := active(0, "x")
	for _, tc := range []struct {
		name string
		in   []byte
		err  string
	}{
		{"passive", mod(dataSec(seg, []byte{1, 1, 'x'})), "segment 1 (at 0x11) is passive"},
		{"memory 1", mod(dataSec([]byte{2, 1, 0x41, 0, 0x0b, 1, 'x'})), "is in memory 1, not 0"},
		{"flags 3", mod(dataSec([]byte{3, 0, 0x41, 0, 0x0b, 1, 'x'})), "has flags 3"},
		{"global.get offset", mod(dataSec([]byte{0, 0x23, 0, 0x0b, 1, 'x'})), "not a constant i32.const (opcode 0x23)"},
		{"i64.const offset", mod(dataSec([]byte{0, 0x42, 0, 0x0b, 1, 'x'})), "not a constant i32.const (opcode 0x42)"},
		{"extended constant", mod(dataSec([]byte{0, 0x41, 1, 0x41, 2, 0x6a, 0x0b, 1, 'x'})), "goes on past i32.const"},
		{"overlap", mod(dataSec(active(0, "abcd"), active(3, "x"))), "data segments overlap: [0x0, 0x4) and [0x3, 0x4)"},
		{"same offset", mod(dataSec(active(5, "a"), active(5, "b"))), "overlap"},
		{"empty segment", mod(dataSec(active(5, ""))), "is empty"},
		{"past 4 GiB", mod(dataSec(active(-1, "xy"))), "runs past 4 GiB"},
		{"segment past section", mod(sec(sectionData, []byte{1, 0, 0x41, 0, 0x0b, 5, 'x'})), "runs past the end of the Data section"},
		{"trailing bytes", mod(sec(sectionData, append(append(leb(1), seg...), 0))), "Data section has trailing bytes"},
		{"truncated segment", mod(sec(sectionData, []byte{2, 0, 0x41, 0, 0x0b, 1, 'x'})), "ends too soon"},
		{"section past end", mod(dataSec(seg))[:12], "runs past the end of the module"},
		{"two data sections", mod(dataSec(seg), dataSec(active(9, "y"))), "section 11 appears twice"},
		{"DataCount mismatch", mod(countSec1(2), dataSec(seg)), "DataCount says 2 segments, the Data section has 1"},
		{"DataCount trailing", mod(sec(sectionDataCount, []byte{1, 0}), dataSec(seg)), "DataCount section has trailing bytes"},
		{"data.drop", mod(typeSec, funcSec, memSec, countSec1(2), dropCode, dataSec(seg, active(4, "y"))), "memory.init or data.drop"},
		{"memory.init", mod(countSec1(1), sec(sectionCode, []byte{1, 8, 0, 0xfc, 0x88, 0x00, 0, 0, 0x0b}), dataSec(seg)), "memory.init or data.drop"},
		{"u32 too long", mod([]byte{sectionData, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00}), "u32 LEB128 longer than 5 bytes or past 32 bits at 0xd"},
		{"u32 too large", mod([]byte{sectionData, 0x80, 0x80, 0x80, 0x80, 0x10}), "u32 LEB128 longer than 5 bytes or past 32 bits"},
		{"s32 too large", mod(dataSec([]byte{0, 0x41, 0x80, 0x80, 0x80, 0x80, 0x08, 0x0b, 1, 'x'})), "s32 LEB128 longer than 5 bytes or past 32 bits"},
		{"not wasm", []byte("\x00asn\x01\x00\x00\x00"), "not a WebAssembly module"},
		{"short", []byte("\x00asm\x01"), "not a WebAssembly module"},
		{"version 2", []byte("\x00asm\x02\x00\x00\x00"), "binary version 0x2, not 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := Merge(tc.in, DefaultMaxGap)
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Fatalf("error %v, want one with %q", err, tc.err)
			}
			if out != nil {
				t.Fatal("a refused module gave bytes")
			}
		})
	}
}

func TestMergeRefusesTooMuchZeros(t *testing.T) {
	in := mod(dataSec(active(0, "x"), active(1<<30, "y")))
	if _, _, err := Merge(in, -1); err == nil || !strings.Contains(err.Error(), "would write 1073741825 B of data") {
		t.Fatalf("never splitting a gap of 1 GiB: %v", err)
	}
	out, st, err := Merge(in, DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	checkMerged(t, in, out, st, DefaultMaxGap)
}

func TestLEB128(t *testing.T) {
	for _, v := range []uint32{0, 1, 63, 64, 127, 128, 16383, 16384, 1<<21 - 1, 1 << 28, math.MaxUint32} {
		r := reader{b: appendU32(nil, v)}
		if got, err := r.u32(); err != nil || got != v || r.pos != len(r.b) {
			t.Errorf("u32 %d: got %d, %v", v, got, err)
		}
	}
	for _, v := range []int32{0, 1, -1, 63, 64, -64, -65, 8191, 8192, -8193, math.MaxInt32, math.MinInt32} {
		r := reader{b: appendS32(nil, v)}
		if got, err := r.s32(); err != nil || got != v || r.pos != len(r.b) {
			t.Errorf("s32 %d: got %d, %v (% x)", v, got, err, r.b)
		}
	}
	// Padded forms are valid.
	for _, tc := range []struct {
		b []byte
		v int32
	}{{[]byte{0xff, 0xff, 0xff, 0xff, 0x7f}, -1}, {[]byte{0x80, 0x80, 0x80, 0x80, 0x00}, 0}, {[]byte{0xff, 0x7f}, -1}} {
		r := reader{b: tc.b}
		if got, err := r.s32(); err != nil || got != tc.v {
			t.Errorf("s32 % x: got %d, %v", tc.b, got, err)
		}
	}
	for _, b := range [][]byte{{0xff, 0xff, 0xff, 0xff, 0x4f}, {0x80, 0x80, 0x80, 0x80, 0x70}, {0x80}} {
		r := reader{b: b}
		if v, err := r.s32(); err == nil {
			t.Errorf("s32 % x: got %d, want an error", b, v)
		}
	}
}

// TestAoekitModule builds wasm/browser as make browser does and merges it: the memory image,
// every other section and a call through the loader in Node (where node is installed) must be
// the same as the original's, and wabt's wasm-validate (where installed) must pass it.
func TestAoekitModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds aoekit.wasm: not in -short")
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("cannot run go build here")
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		if gobin, err = exec.LookPath("go"); err != nil {
			t.Skip("no go command to build aoekit.wasm with")
		}
	}
	dir := t.TempDir()
	orig := filepath.Join(dir, "aoekit.wasm")
	cmd := exec.Command(gobin, "build", "-trimpath", "-ldflags=-s -w", "-o", orig, "./wasm/browser")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Skipf("building aoekit.wasm failed (skipping its merge): %v\n%s", err, out)
	}
	in, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	out, st, err := Merge(in, DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	checkMerged(t, in, out, st, DefaultMaxGap)
	t.Logf("aoekit.wasm: %d data segments (%d B) -> %d (%d B); module %d -> %d B",
		st.Segments, st.DataBytes, st.MergedSegments, st.MergedBytes, st.Size, st.MergedSize)
	if st.Segments < 1000 || st.MergedSegments > 10 {
		t.Errorf("%d segments merged into %d: not what Go's linker and DefaultMaxGap give", st.Segments, st.MergedSegments)
	}

	mergedFile := filepath.Join(dir, "merged.wasm")
	if err := os.WriteFile(mergedFile, out, 0o644); err != nil {
		t.Fatal(err)
	}
	if validate, err := exec.LookPath("wasm-validate"); err == nil { // wabt's
		if res, err := exec.Command(validate, mergedFile).CombinedOutput(); err != nil {
			t.Errorf("wasm-validate on the merged module: %v\n%s", err, res)
		}
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Log("no node: the merged module is not run")
		return
	}
	if _, err := os.Stat(filepath.Join(root, "web", "wasm_exec.js")); err != nil {
		t.Log("no web/wasm_exec.js (make browser installs it): the merged module is not run")
		return
	}
	// Each module answers through web/index.js's load; the answers must be the same.
	const script = `
const { load } = await import(process.argv[1]);
const out = [];
for (const wasm of process.argv.slice(2)) {
  const engine = await load({ wasm });
  out.push({ evaluate: engine.evaluate({ template: "Cir2", origin: { x: 5, y: 5 } }), parse: engine.parse("Cir3"), version: engine.version() });
}
console.log(JSON.stringify(out));`
	run := exec.Command(node, "--input-type=module", "-e", script, "--", filepath.Join(root, "web", "index.js"), orig, mergedFile)
	res, err := run.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("node: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("node: %v", err)
	}
	var answers []map[string]json.RawMessage
	if err := json.Unmarshal(res, &answers); err != nil || len(answers) != 2 {
		t.Fatalf("node printed %s (%v)", res, err)
	}
	for k, v := range answers[0] {
		if !bytes.Equal(v, answers[1][k]) {
			t.Errorf("%s: the original module answers %s, the merged one %s", k, v, answers[1][k])
		}
	}
	var ev struct{ Count int }
	if err := json.Unmarshal(answers[1]["evaluate"], &ev); err != nil || ev.Count != 50 {
		t.Errorf("the merged module's Cir2 at (5, 5) has %d cells (%v), want 50", ev.Count, err)
	}
	t.Logf("node: both modules answer alike through web/index.js (Cir2 at (5, 5): %d cells)", ev.Count)
}

// FuzzMerge: Merge never panics, and either refuses or gives a module that leaves the same
// memory, keeps every other section, and does not change when merged again.
func FuzzMerge(f *testing.F) {
	for _, m := range [][]byte{
		mod(typeSec, funcSec, memSec, codeSec, dataSec(active(100, "cc"), active(0, "a\x00b"), active(40, "bbbb")), custom("p", "x")),
		mod(countSec1(2), dataSec(active(8, "a"), active(0, "b"))),
		mod(dataSec([]byte{2, 0, 0x41, 4, 0x0b, 1, 'x'}, active(-1, "y"))),
		mod(dataSec(active(0, "x"), []byte{1, 1, 'x'})),
		mod(dataSec(active(0, "x"), active(5000, "y"), active(5002, "z"))),
		mod(),
	} {
		f.Add(m, int16(DefaultMaxGap))
		f.Add(m, int16(-1))
	}
	f.Fuzz(func(t *testing.T, in []byte, gap int16) {
		maxGap := int(gap)
		// Fill at most a few KB of zeros (a gap of 4 GiB is allowed when it is asked for).
		if maxGap < 0 || maxGap > 4096 {
			maxGap = DefaultMaxGap
		}
		keep := append([]byte(nil), in...)
		out, st, err := Merge(in, maxGap)
		if !bytes.Equal(in, keep) {
			t.Fatal("Merge changed its input")
		}
		if err != nil {
			if out != nil {
				t.Fatal("an error with a module")
			}
			return
		}
		checkMerged(t, in, out, st, maxGap)
	})
}
