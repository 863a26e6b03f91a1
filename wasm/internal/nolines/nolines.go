// Package nolines blanks the file and line tables of a linked Go WebAssembly module (issue 30).
//
// Go keeps its function table (the pclntab) in the module's data: for each function its entry,
// name, and tables of values by program counter. The runtime needs some of those tables to run:
// the stack pointer's offset (pcsp: unwinding, stack growth) and the pcdata tables (the stack
// maps the garbage collector scans with, the inlining index). Two it reads only to print a
// position: pcfile and pcln, each function's file and line at every instruction, which
// runtime.Caller, runtime.CallersFrames and a crash's traceback report. -ldflags='-s -w' keeps
// them (they are not DWARF). In aoekit.wasm they are ~114 KB of varint deltas that compress
// badly: blanking them saves ~66 KB brotli and ~74 KB gzip (Go 1.26.8).
//
// Strip sets every function's pcfile and pcln to 0, which the runtime reads as "no table"
// (runtime.funcline1 then answers "?" and 0), and zeros their bytes where no table that stays
// shares them (the linker shares identical tables). Function names stay: a traceback still
// names every frame, and gives its offset from the function's entry (+0x…), but no file or
// line. Nothing in aoekit asks for them (no runtime.Caller, runtime.Callers or FuncForPC in the
// modules' code). Every other byte of the module is kept.
//
// Strip reads the Go 1.20+ layout (pcHeader magic 0xfffffff1, 8-byte pointers) of runtime's
// symtab.go and runtime2.go (pcHeader, functab, _func) and refuses, with an error and no module,
// anything else: no header or more than one, offsets out of order or out of the segment, a
// function or table out of its region. A module stripped already has no tables left to blank
// and comes back the same.
package nolines

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"

	"github.com/aoekit/aoekit/wasm/internal/datamerge"
)

// magic is abi.Go120PCLnTabMagic, followed by pad1, pad2 (0, 0), minLC (1 for wasm) and
// ptrSize (8).
var magic = []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8}

// Sizes of the layout (runtime/symtab.go, runtime/runtime2.go, Go 1.20 to 1.26).
const (
	headerSize = 8 + 8*8 // magic..ptrSize, nfunc, nfiles, (textStart), 5 offsets
	funcSize   = 44      // _func up to and with nfuncdata
	offPcfile  = 20      // _func.pcfile
	offPcln    = 24      // _func.pcln
)

// Stats describes a strip.
type Stats struct {
	Funcs        int // functions in the table
	Tables       int // pcfile and pcln tables blanked (offsets set to 0)
	ZeroedBytes  int // table bytes set to 0 (a byte a kept table shares is kept)
	PCTableBytes int // the size of the tables' region (pctab), for scale
}

// Strip returns a copy of module with its file and line tables blanked. On error it returns no
// module: the caller keeps its file as it was.
func Strip(module []byte) ([]byte, Stats, error) {
	out := append([]byte(nil), module...)
	segs, err := datamerge.Segments(out) // their Data alias out
	if err != nil {
		return nil, Stats{}, err
	}
	var found []table
	var refused error // why the first candidate was refused
	for _, s := range segs {
		for at := 0; at < len(s.Data); {
			i := bytes.Index(s.Data[at:], magic)
			if i < 0 {
				break
			}
			i += at
			if t, err := readTable(s.Data, i); err == nil {
				found = append(found, t)
			} else if refused == nil {
				refused = err
			}
			at = i + 1
		}
	}
	switch len(found) {
	case 1:
	case 0:
		msg := "nolines: no Go 1.20+ function table (pcHeader 0xfffffff1, 8-byte pointers) in the module's data"
		if refused != nil {
			msg += " (" + refused.Error() + ")"
		}
		return nil, Stats{}, errors.New(msg)
	default:
		return nil, Stats{}, errors.New("nolines: " + strconv.Itoa(len(found)) + " function tables in the module's data, not one")
	}
	st, err := found[0].strip()
	if err != nil {
		return nil, Stats{}, err
	}
	return out, st, nil
}

// A table is a function table found in a data segment: the regions of its parts, as offsets
// into seg.
type table struct {
	seg         []byte
	nfunc       int
	pctab, pcln int // where the pc tables and the function table (functab, then the _funcs) begin
	pctabEnd    int // = pcln
}

var le = binary.LittleEndian

// readTable reads and checks the header at h of seg.
func readTable(seg []byte, h int) (table, error) {
	at := "the header at data offset " + strconv.Itoa(h)
	if len(seg)-h < headerSize {
		return table{}, errors.New(at + " is cut short")
	}
	word := func(i int) uint64 { return le.Uint64(seg[h+8+8*i:]) }
	nfunc, funcname, cu, filetab, pctab, pcln := word(0), word(3), word(4), word(5), word(6), word(7)
	room := uint64(len(seg) - h)
	switch {
	case nfunc == 0 || nfunc > 1<<24:
		return table{}, errors.New(at + " counts " + strconv.FormatUint(nfunc, 10) + " functions")
	case !(headerSize <= funcname && funcname <= cu && cu <= filetab && filetab <= pctab && pctab <= pcln && pcln <= room):
		return table{}, errors.New(at + " has its parts' offsets out of order or past the segment")
	case (room-pcln)/8 < nfunc+1:
		return table{}, errors.New(at + ": its functab runs past the segment")
	}
	return table{seg: seg, nfunc: int(nfunc), pctab: h + int(pctab), pcln: h + int(pcln), pctabEnd: h + int(pcln)}, nil
}

// strip blanks t's pcfile and pcln tables.
func (t table) strip() (Stats, error) {
	st := Stats{Funcs: t.nfunc, PCTableBytes: t.pctabEnd - t.pctab}
	// Every function's _func, checked first: a refused table is left untouched.
	funcs := make([]int, t.nfunc)
	prevEntry := uint32(0)
	for i := range funcs {
		entry, off := le.Uint32(t.seg[t.pcln+8*i:]), le.Uint32(t.seg[t.pcln+8*i+4:])
		if entry < prevEntry {
			return Stats{}, errors.New("nolines: function " + strconv.Itoa(i) + "'s entry comes before the one before it")
		}
		prevEntry = entry
		f := t.pcln + int(off)
		if uint64(off) > uint64(len(t.seg)-t.pcln) || len(t.seg)-f < funcSize {
			return Stats{}, errors.New("nolines: function " + strconv.Itoa(i) + "'s _func lies past the segment")
		}
		if le.Uint32(t.seg[f:]) != entry {
			return Stats{}, errors.New("nolines: function " + strconv.Itoa(i) + "'s _func does not begin with its entry")
		}
		npcdata, nfuncdata := uint64(le.Uint32(t.seg[f+28:])), uint64(t.seg[f+funcSize-1])
		if npcdata > 1<<10 || uint64(len(t.seg)-f-funcSize) < 4*(npcdata+nfuncdata) {
			return Stats{}, errors.New("nolines: function " + strconv.Itoa(i) + "'s pcdata and funcdata run past the segment")
		}
		funcs[i] = f
	}
	// The bytes of the tables that stay: pcsp and every pcdata table.
	kept := make([]bool, t.pctabEnd-t.pctab)
	mark := func(i int, off uint32) error {
		if off == 0 {
			return nil
		}
		n, err := t.tableLen(off)
		if err != nil {
			return errors.New("nolines: function " + strconv.Itoa(i) + ": " + err.Error())
		}
		for b := range n {
			kept[int(off)+b] = true
		}
		return nil
	}
	drop := make([][2]uint32, 0, 2*len(funcs))
	for i, f := range funcs {
		if err := mark(i, le.Uint32(t.seg[f+16:])); err != nil { // pcsp
			return Stats{}, err
		}
		npcdata := int(le.Uint32(t.seg[f+28:]))
		for k := range npcdata {
			if err := mark(i, le.Uint32(t.seg[f+funcSize+4*k:])); err != nil {
				return Stats{}, err
			}
		}
		for _, field := range []int{offPcfile, offPcln} {
			off := le.Uint32(t.seg[f+field:])
			if off == 0 {
				continue
			}
			n, err := t.tableLen(off)
			if err != nil {
				return Stats{}, errors.New("nolines: function " + strconv.Itoa(i) + ": " + err.Error())
			}
			drop = append(drop, [2]uint32{off, off + uint32(n)})
		}
	}
	// Checked: now blank.
	for _, f := range funcs {
		for _, field := range []int{offPcfile, offPcln} {
			if le.Uint32(t.seg[f+field:]) != 0 {
				le.PutUint32(t.seg[f+field:], 0)
				st.Tables++
			}
		}
	}
	for _, r := range drop {
		for b := r[0]; b < r[1]; b++ {
			if !kept[b] && t.seg[t.pctab+int(b)] != 0 {
				t.seg[t.pctab+int(b)] = 0
				st.ZeroedBytes++
			}
		}
	}
	return st, nil
}

// tableLen is the length of the pc-value table at off in pctab: pairs of a value delta (a
// zig-zag varint) and a pc delta (a varint), ended by a value delta of 0 after the first pair
// (runtime.step: a 0 byte where a pair would begin).
func (t table) tableLen(off uint32) (int, error) {
	tab := t.seg[t.pctab:t.pctabEnd]
	if uint64(off) >= uint64(len(tab)) {
		return 0, errors.New("a pc table at " + strconv.FormatUint(uint64(off), 10) + " lies past the tables' region")
	}
	p := int(off)
	for first := true; ; first = false {
		if p >= len(tab) {
			return 0, errors.New("the pc table at " + strconv.FormatUint(uint64(off), 10) + " runs past the tables' region")
		}
		if tab[p] == 0 && !first {
			return p + 1 - int(off), nil
		}
		for range 2 { // value delta, pc delta
			_, n := binary.Uvarint(tab[p:])
			if n <= 0 {
				return 0, errors.New("the pc table at " + strconv.FormatUint(uint64(off), 10) + " has a malformed varint")
			}
			p += n
		}
	}
}
