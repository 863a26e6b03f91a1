package nolines

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/wasm/internal/datamerge"
)

// --- a module, and a function table laid out as runtime/symtab.go's, built by hand ---

func uleb(b []byte, v uint64) []byte { return binary.AppendUvarint(b, v) }

func sleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// module is a WebAssembly module of a Data section alone, each segment at its offset.
func module(segs ...datamerge.Segment) []byte {
	body := uleb(nil, uint64(len(segs)))
	for _, s := range segs {
		body = append(body, 0, 0x41)
		body = sleb(body, int64(int32(s.Offset)))
		body = append(body, 0x0b)
		body = uleb(body, uint64(len(s.Data)))
		body = append(body, s.Data...)
	}
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, 11)
	m = uleb(m, uint64(len(body)))
	return append(m, body...)
}

// pcTable encodes a pc-value table of (value delta, pc delta) pairs as runtime.step reads it.
func pcTable(pairs ...[2]int64) []byte {
	var b []byte
	for _, p := range pairs {
		b = uleb(b, uint64(p[0]<<1^p[0]>>63)) // zig-zag
		b = uleb(b, uint64(p[1]))
	}
	return append(b, 0)
}

// fn is a function of a synthetic table: its tables as offsets into pctab (0: none).
type fn struct {
	pcsp, pcfile, pcln uint32
	pcdata             []uint32
}

// synth lays out a function table at offset pad of a segment: the header, a name table, a
// cutab, a filetab, pctab (as given), the functab and the _funcs.
func synth(pad int, pctab []byte, funcs []fn) []byte {
	names := []byte("\x00main.a\x00main.b\x00")
	cutab := make([]byte, 8)
	files := []byte("a.go\x00")
	seg := make([]byte, pad+headerSize)
	copy(seg[pad:], magic)
	seg = append(seg, names...)
	cu := len(seg) - pad
	seg = append(seg, cutab...)
	ft := len(seg) - pad
	seg = append(seg, files...)
	pc := len(seg) - pad
	seg = append(seg, pctab...)
	ln := len(seg) - pad
	functab := make([]byte, 8*(len(funcs)+1))
	var fs []byte
	for i, f := range funcs {
		off := len(functab) + len(fs)
		binary.LittleEndian.PutUint32(functab[8*i:], uint32(16*i))
		binary.LittleEndian.PutUint32(functab[8*i+4:], uint32(off))
		rec := make([]byte, funcSize)
		binary.LittleEndian.PutUint32(rec[0:], uint32(16*i))
		binary.LittleEndian.PutUint32(rec[4:], uint32(1+7*i))
		binary.LittleEndian.PutUint32(rec[16:], f.pcsp)
		binary.LittleEndian.PutUint32(rec[20:], f.pcfile)
		binary.LittleEndian.PutUint32(rec[24:], f.pcln)
		binary.LittleEndian.PutUint32(rec[28:], uint32(len(f.pcdata)))
		rec[funcSize-1] = 1 // nfuncdata
		for _, d := range f.pcdata {
			rec = binary.LittleEndian.AppendUint32(rec, d)
		}
		rec = binary.LittleEndian.AppendUint32(rec, 0xffffffff) // the funcdata offset
		fs = append(fs, rec...)
	}
	binary.LittleEndian.PutUint32(functab[8*len(funcs):], uint32(16*len(funcs)))
	seg = append(seg, functab...)
	seg = append(seg, fs...)
	w := func(i int, v int) { binary.LittleEndian.PutUint64(seg[pad+8+8*i:], uint64(v)) }
	w(0, len(funcs))
	w(1, 1)
	w(3, headerSize)
	w(4, cu)
	w(5, ft)
	w(6, pc)
	w(7, ln)
	return seg
}

// sharedTables: five tables in pctab (after its leading 0), f1's pcsp the very table that is
// f0's pcln, and f0's and f1's pcfile one table.
func sharedTables() (pctab []byte, funcs []fn, t [6][2]int) {
	pctab = []byte{0}
	add := func(tab []byte) [2]int {
		at := len(pctab)
		pctab = append(pctab, tab...)
		return [2]int{at, len(pctab)}
	}
	t[1] = add(pcTable([2]int64{9, 4}, [2]int64{-1, 8}))                    // f0 pcsp
	t[2] = add(pcTable([2]int64{1, 12}))                                    // pcfile of both
	t[3] = add(pcTable([2]int64{41, 3}, [2]int64{2, 5}, [2]int64{-300, 4})) // f0 pcln, f1 pcsp
	t[4] = add(pcTable([2]int64{0, 12}))                                    // f0 pcdata
	t[5] = add(pcTable([2]int64{77, 2}, [2]int64{1, 10}))                   // f1 pcln
	funcs = []fn{
		{pcsp: uint32(t[1][0]), pcfile: uint32(t[2][0]), pcln: uint32(t[3][0]), pcdata: []uint32{uint32(t[4][0]), 0}},
		{pcsp: uint32(t[3][0]), pcfile: uint32(t[2][0]), pcln: uint32(t[5][0])},
	}
	return pctab, funcs, t
}

func nonZero(b []byte) int {
	n := 0
	for _, c := range b {
		if c != 0 {
			n++
		}
	}
	return n
}

// TestStripSharedTables: a table another function reads as its pcsp stays whole; the pcfile and
// pcln tables no one else reads are zeroed; every pcfile and pcln is 0 after; nothing else moves.
func TestStripSharedTables(t *testing.T) {
	pctab, funcs, tabs := sharedTables()
	const pad = 13
	seg := synth(pad, pctab, funcs)
	in := module(datamerge.Segment{Offset: 4096, Data: append([]byte("other data"), make([]byte, 30)...)},
		datamerge.Segment{Offset: 8192, Data: seg})
	keep := bytes.Clone(in)
	out, st, err := Strip(in)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(in, keep) {
		t.Fatal("Strip changed its input")
	}
	wantZeroed := nonZero(pctab[tabs[2][0]:tabs[2][1]]) + nonZero(pctab[tabs[5][0]:tabs[5][1]])
	if st.Funcs != 2 || st.Tables != 4 || st.ZeroedBytes != wantZeroed || st.PCTableBytes != len(pctab) {
		t.Errorf("stats %+v, want 2 functions, 4 tables, %d B zeroed of %d", st, wantZeroed, len(pctab))
	}
	segs, err := datamerge.Segments(out)
	if err != nil || len(segs) != 2 {
		t.Fatal(segs, err)
	}
	got := segs[1].Data
	// Where pctab and the _funcs lie in the synthetic segment (synth's layout).
	pcAt := pad + int(binary.LittleEndian.Uint64(seg[pad+8+8*6:]))
	lnAt := pad + int(binary.LittleEndian.Uint64(seg[pad+8+8*7:]))
	want := bytes.Clone(seg)
	for _, k := range []int{2, 5} {
		clear(want[pcAt+tabs[k][0] : pcAt+tabs[k][1]])
	}
	for i := range funcs {
		f := lnAt + int(binary.LittleEndian.Uint32(seg[lnAt+8*i+4:]))
		clear(want[f+offPcfile : f+offPcln+4])
	}
	if !bytes.Equal(got, want) {
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("byte %d of the segment: %#x, want %#x", i, got[i], want[i])
			}
		}
	}
	if !bytes.Equal(segs[0].Data, append([]byte("other data"), make([]byte, 30)...)) {
		t.Error("the other segment moved")
	}
	// Again: nothing left to blank, the same module.
	again, st2, err := Strip(out)
	if err != nil || !bytes.Equal(again, out) || st2.Tables != 0 || st2.ZeroedBytes != 0 {
		t.Errorf("stripped twice: %+v, %v, same %v", st2, err, bytes.Equal(again, out))
	}
}

// TestStripRefuses: anything but one well-formed table is refused, with an error naming it, and
// no module.
func TestStripRefuses(t *testing.T) {
	pctab, funcs, _ := sharedTables()
	good := synth(0, pctab, funcs)
	at := func(b []byte, i int, v uint64) []byte {
		b = bytes.Clone(b)
		binary.LittleEndian.PutUint64(b[8+8*i:], v)
		return b
	}
	lnAt := int(binary.LittleEndian.Uint64(good[8+8*7:]))
	f0 := lnAt + int(binary.LittleEndian.Uint32(good[lnAt+4:]))
	put32 := func(b []byte, i int, v uint32) []byte {
		b = bytes.Clone(b)
		binary.LittleEndian.PutUint32(b[i:], v)
		return b
	}
	for _, c := range []struct {
		name string
		mod  []byte
		want string
	}{
		{"no data", module(), "no Go 1.20+ function table"},
		{"no table", module(datamerge.Segment{Offset: 0, Data: []byte("just data")}), "no Go 1.20+ function table"},
		{"two tables", module(datamerge.Segment{Offset: 0, Data: good}, datamerge.Segment{Offset: 1 << 20, Data: good}), "2 function tables"},
		{"cut short", module(datamerge.Segment{Offset: 0, Data: good[:40]}), "cut short"},
		{"no functions", module(datamerge.Segment{Offset: 0, Data: at(good, 0, 0)}), "counts 0 functions"},
		{"offsets out of order", module(datamerge.Segment{Offset: 0, Data: at(good, 5, 1<<40)}), "out of order"},
		{"functab past the end", module(datamerge.Segment{Offset: 0, Data: at(good, 0, 1<<20)}), "functab runs past"},
		{"a _func past the end", module(datamerge.Segment{Offset: 0, Data: put32(good, lnAt+4, 1<<30)}), "past the segment"},
		{"a _func not at its entry", module(datamerge.Segment{Offset: 0, Data: put32(good, f0, 99)}), "does not begin with its entry"},
		{"entries out of order", module(datamerge.Segment{Offset: 0, Data: put32(put32(good, lnAt, 50), f0, 50)}), "comes before"},
		{"a table past pctab", module(datamerge.Segment{Offset: 0, Data: put32(good, f0+offPcln, uint32(len(pctab)+5))}), "past the tables' region"},
		{"a table cut by pctab's end", module(datamerge.Segment{Offset: 0, Data: put32(good, f0+offPcln, uint32(len(pctab)-1))}), "pc table at"},
		{"not a module", []byte("\x00asm\x02"), ""},
	} {
		out, _, err := Strip(c.mod)
		if err == nil || out != nil {
			t.Errorf("%s: no error (%v) or a module", c.name, err)
			continue
		}
		if c.want != "" && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want it to say %q", c.name, err, c.want)
		}
	}
}

// TestStripGoProgram: a Go program (testdata/trace) built for js/wasm as make browser builds the
// modules, merged and stripped, runs under Node as it did, its stacks grown and scanned, its
// panics recovered; its frames keep their function names and lose their files and lines; a crash
// still prints a traceback that names every frame.
func TestStripGoProgram(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a js/wasm program: not in -short")
	}
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("cannot run go build here")
	}
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		t.Skip("no go command in GOROOT")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("no node to run the program with")
	}
	runner := filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec_node.js")
	if _, err := os.Stat(runner); err != nil {
		t.Skip("no wasm_exec_node.js in GOROOT")
	}
	dir := t.TempDir()
	orig := filepath.Join(dir, "trace.wasm")
	build := exec.Command(gobin, "build", "-trimpath", "-ldflags=-s -w", "-o", orig, "./testdata/trace")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	in, err := os.ReadFile(orig)
	if err != nil {
		t.Fatal(err)
	}
	merged, _, err := datamerge.Merge(in, datamerge.DefaultMaxGap)
	if err != nil {
		t.Fatal(err)
	}
	out, st, err := Strip(merged)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d functions, %d tables blanked, %d of %d B of pc tables zeroed", st.Funcs, st.Tables, st.ZeroedBytes, st.PCTableBytes)
	if st.Funcs < 500 || st.Tables < st.Funcs || st.ZeroedBytes < st.PCTableBytes/4 {
		t.Errorf("stats %+v: not what a Go program's table gives", st)
	}
	stripped := filepath.Join(dir, "stripped.wasm")
	mergedFile := filepath.Join(dir, "merged.wasm")
	for f, b := range map[string][]byte{stripped: out, mergedFile: merged} {
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if validate, err := exec.LookPath("wasm-validate"); err == nil { // wabt's
		if res, err := exec.Command(validate, stripped).CombinedOutput(); err != nil {
			t.Errorf("wasm-validate: %v\n%s", err, res)
		}
	}
	run := func(file string, args ...string) (string, int) {
		cmd := exec.Command(node, append([]string{runner, file}, args...)...)
		res, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if err != nil && !errors.As(err, &ee) {
			t.Fatalf("node: %v", err)
		}
		return string(res), cmd.ProcessState.ExitCode()
	}
	before, code := run(mergedFile)
	if code != 0 {
		t.Fatalf("the merged program exited %d:\n%s", code, before)
	}
	after, code := run(stripped)
	if code != 0 {
		t.Fatalf("the stripped program exited %d:\n%s", code, after)
	}
	// Every position the merged program printed (file.go:line) reads ?:0 after; the rest alike.
	pos := regexp.MustCompile(`[\w.]+\.go:[1-9]\d*`)
	if n := len(pos.FindAllString(before, -1)); n < 4 {
		t.Fatalf("the merged program printed %d positions:\n%s", n, before)
	}
	if want := pos.ReplaceAllString(before, "?:0"); after != want {
		t.Errorf("the stripped program printed\n%s\nwant\n%s", after, want)
	}
	for _, s := range []string{"deep 200010000", "recovered assignment to entry in nil map", "frame main.frames ?:0", "funcforpc main.main ?:0"} {
		if !strings.Contains(after, s) {
			t.Errorf("the stripped program did not print %q:\n%s", s, after)
		}
	}
	crash, code := run(stripped, "crash")
	if code != 2 || !strings.Contains(crash, "panic: crash asked for") || strings.Count(crash, "main.crash(") < 3 ||
		!strings.Contains(crash, "main.main()") || !strings.Contains(crash, "?:0 +0x") {
		t.Errorf("the stripped program's crash exited %d and printed:\n%s", code, crash)
	}
}

// FuzzStrip: Strip never panics; what it accepts it changes only in pctab and in its functions'
// pcfile and pcln fields (the bytes of the segment from pctab on), and a second strip leaves as
// it is.
func FuzzStrip(f *testing.F) {
	pctab, funcs, _ := sharedTables()
	good := synth(3, pctab, funcs)
	f.Add(module(datamerge.Segment{Offset: 64, Data: good}))
	f.Add(module(datamerge.Segment{Offset: 64, Data: good[:len(good)-9]}))
	f.Add(module(datamerge.Segment{Offset: 0, Data: []byte("x")}, datamerge.Segment{Offset: 64, Data: good}))
	f.Fuzz(func(t *testing.T, in []byte) {
		keep := bytes.Clone(in)
		out, st, err := Strip(in)
		if !bytes.Equal(in, keep) {
			t.Fatal("Strip changed its input")
		}
		if err != nil {
			if out != nil {
				t.Fatal("an error with a module")
			}
			return
		}
		if len(out) != len(in) {
			t.Fatalf("%d B in, %d out", len(in), len(out))
		}
		changed := 0
		for i := range in {
			if in[i] != out[i] {
				changed++
			}
		}
		if changed > st.ZeroedBytes+8*st.Tables {
			t.Fatalf("%d bytes changed for %+v", changed, st)
		}
		again, st2, err := Strip(out)
		if err != nil || !bytes.Equal(again, out) || st2.Tables != 0 {
			t.Fatalf("a second strip: %+v %v", st2, err)
		}
	})
}
