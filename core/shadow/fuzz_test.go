package shadow

import (
	"math/rand/v2"
	"testing"
)

// bytePicker draws numbers from the fuzzer's bytes, one byte for n ≤ 256 and two above; 0
// once they run out.
type bytePicker struct{ b []byte }

func (p *bytePicker) byte() int {
	if len(p.b) == 0 {
		return 0
	}
	v := p.b[0]
	p.b = p.b[1:]
	return int(v)
}

func (p *bytePicker) IntN(n int) int {
	v := p.byte()
	if n > 256 {
		v = v<<8 | p.byte()
	}
	return v % n
}

// FuzzField decodes bytes into a scene of genScene (a board of 3 to 6 squares across, solids
// on levels −1 … 2, up to five thin walls, a source box of up to 3 × 2 squares, a target box
// and a height range) and holds every verdict of its field to los.Blocked (SPEC §5.2, §5.6),
// as TestSoundRandom does, at one pair of heights per pair of points to keep each run short;
// then the same of a field of NewCentres on that board (soundCentres).
func FuzzField(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte{4, 3, 3, 0, 1, 0, 0, 1, 3, 200, 0, 2, 1, 9, 4, 1, 2, 0, 0, 5, 1, 1, 2, 2, 3})
	f.Add([]byte{255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255})
	f.Add([]byte{2, 1, 1, 2, 0, 0, 2, 0, 3, 1, 1, 0, 5, 0, 5, 5, 1, 6, 2, 0, 1, 1, 2, 0, 2, 3, 1, 4, 1, 0, 0})
	for seed := range uint64(4) {
		r := rand.New(rand.NewPCG(seed, 99))
		b := make([]byte, 40+r.IntN(200))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := &bytePicker{data}
		sc := genScene(r, 6)
		sc.name = "fuzz"
		var n tally
		soundScene(t, sc, r, &n, false)
		soundCentres(t, sc, r, &n)
	})
}
