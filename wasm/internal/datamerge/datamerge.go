// Package datamerge merges a linked WebAssembly module's active data segments into a few large
// ones (issue 30). Go's wasm linker writes the data section as one segment per run of non-zero
// bytes (it splits wherever 8 or more zero bytes lie between two runs): aoekit.wasm has ~36,600
// segments. Every segment costs a header of 5 to 9 bytes, and every header breaks the run a
// compressor is matching. Linear memory starts zeroed, so the segments can be written again as
// one run from the lowest offset to the highest end, the gaps between them filled with zeros:
// the memory the module starts with is the same to the byte.
//
// Merge takes only what Go emits: active segments in memory 0 whose offset is an i32.const. It
// refuses any other module (passive segments, another memory, a global.get or extended-constant
// offset, segments that overlap, an empty segment, a malformed module) with an error and
// returns no module. Every section but Data (11) and DataCount (12) is copied byte for byte.
//
// Merge splits the output where a zero gap is longer than maxGap bytes, so that a far-off
// segment does not make the module carry a long run of zeros; DefaultMaxGap was chosen by
// measuring aoekit.wasm (see its comment).
package datamerge

import (
	"errors"
	"sort"
	"strconv"
)

// DefaultMaxGap is the longest zero gap Merge fills with zeros by default: a longer gap splits
// the output there. Go's linker splits at runs of 8 zero bytes or more: of aoekit.wasm's 36,666
// gaps, 34,446 are 16 to 31 B, 2,113 are 8 to 15 B, 105 are longer, the longest 1,397 B (657,695
// B of zeros in all, for 36,666 headers of ~7.7 B). Measured with go run
// ./wasm/internal/datamerge/cmd/datamerge -gap N (Go 1.26.8; sizes in bytes):
//
//	         web/aoekit.wasm                       web/aoekit-overlay.wasm
//	-gap     segs    raw        gzip -9   brotli   segs    raw        gzip -9    brotli
//	(none)   36,667  3,304,478  933,735   710,397  42,698  3,939,676  1,092,820  825,915
//	0        36,666  3,304,467  934,326   710,721  42,698  3,939,665  1,092,838  824,998
//	16       34,523  3,312,962  928,675   702,103  40,009  3,950,500  1,086,371  815,846
//	32           92  3,674,427  873,129   669,294     198  4,358,340  1,021,595  777,421
//	64           21  3,676,935  872,892   668,775      36  4,364,380  1,021,047  775,656
//	256           3  3,678,391  872,821   668,250       4  4,367,857  1,020,972  776,634
//	1024          2  3,678,703  872,811   668,923       2  4,368,501  1,020,963  776,075
//	4096          1  3,680,090  872,808   669,096       1  4,370,888  1,020,962  775,482
//	-1 (never)    1  3,680,090  872,806   669,096       1  4,370,888  1,020,960  775,482
//
// (brotli is brotli -q 11.) Filling the gaps of 32 B and less is what saves (-41 KB brotli and
// -61 KB gzip on aoekit.wasm, -50 KB and -72 KB on the overlay, for +375 KB and +431 KB raw of
// zeros); from -gap 64 on, brotli moves by under 1 KB either way, which is its noise: merely
// shortening the Data section's size from Go's padded 5-byte LEB128 to 3 bytes moves
// aoekit.wasm's brotli size by -625 B. 4096 gives one segment for both modules, and still
// splits a module whose data lies far apart, where one header of ~8 B saves kilobytes of raw
// zeros (which cost a compressor next to nothing either way).
const DefaultMaxGap = 4096

// Segment is an active data segment of memory 0: Data is written at Offset when the module is
// instantiated.
type Segment struct {
	Offset uint32
	Data   []byte
}

// End is the offset just past the segment's data.
func (s Segment) End() uint64 { return uint64(s.Offset) + uint64(len(s.Data)) }

// Stats describes a merge: the data segments before and after, the bytes they carry, and the
// module's size.
type Stats struct {
	Segments, MergedSegments int
	DataBytes, MergedBytes   int
	Size, MergedSize         int
}

// Section ids of the binary format.
const (
	sectionCode      = 10
	sectionData      = 11
	sectionDataCount = 12
)

// Merge returns module with its data segments sorted by offset and merged: neighbours are joined
// and the gap between them filled with zeros, unless the gap is longer than maxGap bytes (a
// negative maxGap: never split; Merge refuses to write more than 1 GiB of data). The DataCount
// section, if any, is set to the new count. A module without data segments is returned as it
// is (a copy). On error, Merge returns no module: the caller keeps its file as it was.
func Merge(module []byte, maxGap int) ([]byte, Stats, error) {
	secs, err := parseSections(module)
	if err != nil {
		return nil, Stats{}, err
	}
	segs, err := segmentsOf(module, secs)
	if err != nil {
		return nil, Stats{}, err
	}
	st := Stats{Segments: len(segs), Size: len(module)}
	for _, s := range segs {
		st.DataBytes += len(s.Data)
	}
	if len(segs) == 0 {
		st.MergedSize = len(module)
		return append([]byte(nil), module...), st, nil
	}
	sorted := append([]Segment(nil), segs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Offset < sorted[j].Offset })
	for i := 1; i < len(sorted); i++ {
		if uint64(sorted[i].Offset) < sorted[i-1].End() {
			return nil, Stats{}, errors.New("datamerge: data segments overlap: [" + hex(uint64(sorted[i-1].Offset)) +
				", " + hex(sorted[i-1].End()) + ") and [" + hex(uint64(sorted[i].Offset)) + ", " + hex(sorted[i].End()) + ")")
		}
	}
	if n := mergedSize(sorted, maxGap); n > maxMerged {
		return nil, Stats{}, errors.New("datamerge: merging would write " + strconv.FormatUint(n, 10) +
			" B of data (past 1 GiB, the zeros of gaps included): use a smaller maxGap")
	}
	merged := mergeSorted(sorted, maxGap)
	st.MergedSegments = len(merged)
	for _, s := range merged {
		st.MergedBytes += len(s.Data)
	}

	out := make([]byte, 0, len(module)+st.MergedBytes-st.DataBytes+16)
	out = append(out, module[:8]...)
	for _, s := range secs {
		switch s.id {
		case sectionData:
			out = appendSection(out, sectionData, encodeData(merged))
		case sectionDataCount:
			out = appendSection(out, sectionDataCount, appendU32(nil, uint32(len(merged))))
		default:
			out = append(out, module[s.start:s.end]...)
		}
	}
	st.MergedSize = len(out)
	return out, st, nil
}

// Segments returns module's data segments in the module's order, or an error for a module
// Merge refuses (but for overlapping segments, which Merge finds once they are sorted).
func Segments(module []byte) ([]Segment, error) {
	secs, err := parseSections(module)
	if err != nil {
		return nil, err
	}
	return segmentsOf(module, secs)
}

// maxMerged bounds the bytes Merge writes: a module's data, gaps included, is far smaller.
const maxMerged = 1 << 30

// joins reports whether mergeSorted joins a segment ending at end to the next, at next.
func joins(end uint64, next uint32, maxGap int) bool {
	return maxGap < 0 || uint64(next)-end <= uint64(maxGap)
}

// mergedSize is the bytes mergeSorted's segments hold.
func mergedSize(sorted []Segment, maxGap int) uint64 {
	n := uint64(len(sorted[0].Data))
	for i := 1; i < len(sorted); i++ {
		if joins(sorted[i-1].End(), sorted[i].Offset, maxGap) {
			n += uint64(sorted[i].Offset) - sorted[i-1].End()
		}
		n += uint64(len(sorted[i].Data))
	}
	return n
}

// mergeSorted joins sorted, non-overlapping segments whose gap is at most maxGap bytes (any
// gap when maxGap < 0) into one segment each, the gaps zero-filled.
func mergeSorted(sorted []Segment, maxGap int) []Segment {
	var out []Segment
	for i := 0; i < len(sorted); {
		j, end := i+1, sorted[i].End()
		for j < len(sorted) && joins(end, sorted[j].Offset, maxGap) {
			end = sorted[j].End()
			j++
		}
		base := sorted[i].Offset
		data := make([]byte, end-uint64(base))
		for _, s := range sorted[i:j] {
			copy(data[s.Offset-base:], s.Data)
		}
		out = append(out, Segment{Offset: base, Data: data})
		i = j
	}
	return out
}

// encodeData is the body of a Data section holding segs, each as flags 0 (active, memory 0),
// i32.const offset, end.
func encodeData(segs []Segment) []byte {
	n := 5
	for _, s := range segs {
		n += 17 + len(s.Data)
	}
	b := appendU32(make([]byte, 0, n), uint32(len(segs)))
	for _, s := range segs {
		b = append(b, 0x00, 0x41)
		b = appendS32(b, int32(s.Offset))
		b = append(b, 0x0b)
		b = appendU32(b, uint32(len(s.Data)))
		b = append(b, s.Data...)
	}
	return b
}

func appendSection(b []byte, id byte, body []byte) []byte {
	b = append(b, id)
	b = appendU32(b, uint32(len(body)))
	return append(b, body...)
}

// section is one section of a module: module[start:end] is the whole of it (id, size and
// body), module[body:end] its body.
type section struct {
	id         byte
	start, end int
	body       int
}

// parseSections checks the module's header and splits it into sections. Custom and unknown
// sections are taken as they are; a Data, DataCount or Code section may appear only once.
func parseSections(m []byte) ([]section, error) {
	if len(m) < 8 || string(m[:4]) != "\x00asm" {
		return nil, errors.New("datamerge: not a WebAssembly module (no \\0asm magic)")
	}
	if string(m[4:8]) != "\x01\x00\x00\x00" {
		return nil, errors.New("datamerge: WebAssembly binary version " + hex(uint64(m[4])|uint64(m[5])<<8|uint64(m[6])<<16|uint64(m[7])<<24) + ", not 1")
	}
	var secs []section
	seen := map[byte]bool{}
	r := reader{b: m, pos: 8}
	for r.pos < len(m) {
		start := r.pos
		id := m[r.pos]
		r.pos++
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if uint64(size) > uint64(len(m)-r.pos) {
			return nil, errors.New("datamerge: section " + strconv.Itoa(int(id)) + " at " + hex(uint64(start)) + " runs past the end of the module")
		}
		if id != 0 && seen[id] {
			return nil, errors.New("datamerge: section " + strconv.Itoa(int(id)) + " appears twice")
		}
		seen[id] = true
		secs = append(secs, section{id: id, start: start, body: r.pos, end: r.pos + int(size)})
		r.pos += int(size)
	}
	return secs, nil
}

// segmentsOf reads the Data section of m, refusing any segment that is not active in memory 0
// at an i32.const offset, or that is empty. It checks the DataCount section against it, and
// that the code cannot name a segment (memory.init, data.drop) when a DataCount is present.
func segmentsOf(m []byte, secs []section) ([]Segment, error) {
	var segs []Segment
	count := -1
	var code *section
	for i := range secs {
		s := &secs[i]
		switch s.id {
		case sectionCode:
			code = s
		case sectionDataCount:
			r := reader{b: m[:s.end], pos: s.body}
			n, err := r.u32()
			if err != nil {
				return nil, err
			}
			if r.pos != s.end {
				return nil, errors.New("datamerge: DataCount section has trailing bytes")
			}
			count = int(n)
		case sectionData:
			var err error
			if segs, err = parseData(m[:s.end], s.body); err != nil {
				return nil, err
			}
		}
	}
	if count >= 0 && count != len(segs) {
		return nil, errors.New("datamerge: DataCount says " + strconv.Itoa(count) + " segments, the Data section has " + strconv.Itoa(len(segs)))
	}
	if count >= 0 && code != nil && len(segs) > 0 && mayNameSegment(m[code.body:code.end]) {
		// Merging renumbers the segments; memory.init and data.drop name one by its index.
		// This is a byte scan, not a decoder: it may refuse a module that uses neither.
		return nil, errors.New("datamerge: the code may use memory.init or data.drop (0xfc 8 or 9), which name data segments by index: not merging")
	}
	return segs, nil
}

// mayNameSegment reports whether code holds a 0xfc prefix followed by the LEB128 of 8
// (memory.init) or 9 (data.drop) anywhere, as an instruction or not.
func mayNameSegment(code []byte) bool {
	for i, c := range code {
		if c != 0xfc {
			continue
		}
		r := reader{b: code, pos: i + 1}
		if op, err := r.u32(); err == nil && (op == 8 || op == 9) {
			return true
		}
	}
	return false
}

// parseData reads the Data section body m[pos:].
func parseData(m []byte, pos int) ([]Segment, error) {
	r := reader{b: m, pos: pos}
	n, err := r.u32()
	if err != nil {
		return nil, err
	}
	// Each segment takes at least 5 bytes: do not trust n for the allocation.
	segs := make([]Segment, 0, min(int(n), (len(m)-r.pos)/5))
	for i := 0; i < int(n); i++ {
		at := r.pos
		where := "datamerge: data segment " + strconv.Itoa(i) + " (at " + hex(uint64(at)) + ")"
		flags, err := r.u32()
		if err != nil {
			return nil, err
		}
		switch flags {
		case 0:
		case 1:
			return nil, errors.New(where + " is passive: only active segments can be merged")
		case 2:
			mem, err := r.u32()
			if err != nil {
				return nil, err
			}
			if mem != 0 {
				return nil, errors.New(where + " is in memory " + strconv.Itoa(int(mem)) + ", not 0")
			}
		default:
			return nil, errors.New(where + " has flags " + strconv.Itoa(int(flags)) + ", not 0 or 2 (active)")
		}
		op, err := r.byte()
		if err != nil {
			return nil, err
		}
		if op != 0x41 {
			return nil, errors.New(where + ": its offset is not a constant i32.const (opcode " + hex(uint64(op)) + ")")
		}
		off, err := r.s32()
		if err != nil {
			return nil, err
		}
		if end, err := r.byte(); err != nil {
			return nil, err
		} else if end != 0x0b {
			return nil, errors.New(where + ": its offset is not a constant i32.const (it goes on past i32.const with opcode " + hex(uint64(end)) + ")")
		}
		size, err := r.u32()
		if err != nil {
			return nil, err
		}
		if uint64(size) > uint64(len(m)-r.pos) {
			return nil, errors.New(where + " runs past the end of the Data section")
		}
		if size == 0 {
			return nil, errors.New(where + " is empty")
		}
		s := Segment{Offset: uint32(off), Data: m[r.pos : r.pos+int(size)]}
		if s.End() > 1<<32 {
			return nil, errors.New(where + " runs past 4 GiB")
		}
		r.pos += int(size)
		segs = append(segs, s)
	}
	if r.pos != len(m) {
		return nil, errors.New("datamerge: Data section has trailing bytes")
	}
	return segs, nil
}

// reader reads LEB128 numbers and bytes from b.
type reader struct {
	b   []byte
	pos int
}

var errEOF = errors.New("datamerge: the module ends too soon")

func (r *reader) byte() (byte, error) {
	if r.pos >= len(r.b) {
		return 0, errEOF
	}
	r.pos++
	return r.b[r.pos-1], nil
}

// u32 reads an unsigned LEB128 of at most 5 bytes whose value fits in 32 bits.
func (r *reader) u32() (uint32, error) {
	var v uint32
	for i := 0; i < 5; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if i == 4 && c&0xf0 != 0 {
			return 0, errors.New("datamerge: u32 LEB128 longer than 5 bytes or past 32 bits at " + hex(uint64(r.pos-1)))
		}
		v |= uint32(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			return v, nil
		}
	}
	panic("unreachable") // the fifth byte returned
}

// s32 reads a signed LEB128 of at most 5 bytes whose value fits in 32 bits.
func (r *reader) s32() (int32, error) {
	var v int64
	for i := 0; i < 5; i++ {
		c, err := r.byte()
		if err != nil {
			return 0, err
		}
		if i == 4 {
			// The last byte holds bits 28 to 31; its bits 4 to 6 must extend bit 3 (the sign).
			if c&0x80 != 0 || (c&0x78 != 0 && c&0x78 != 0x78) {
				return 0, errors.New("datamerge: s32 LEB128 longer than 5 bytes or past 32 bits at " + hex(uint64(r.pos-1)))
			}
		}
		v |= int64(c&0x7f) << (7 * i)
		if c&0x80 == 0 {
			shift := 7 * (i + 1)
			if c&0x40 != 0 && shift < 64 {
				v |= -1 << shift
			}
			return int32(v), nil
		}
	}
	panic("unreachable") // the fifth byte returned
}

func appendU32(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendS32(b []byte, v int32) []byte {
	x := int64(v)
	for {
		c := byte(x & 0x7f)
		x >>= 7
		if (x == 0 && c&0x40 == 0) || (x == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

func hex(v uint64) string { return "0x" + strconv.FormatUint(v, 16) }
