package wire

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

// TestAnswerSizedOnce: encode makes room for an evaluate's answer once (answerSize), so that it
// never grows it: for results of every scale of coordinates (from a board near the origin to
// the int32 ends) the answer fits the room, and the room is not more than a few times it.
// The room is checked against the encoded length, not against answerSize's own arithmetic.
func TestAnswerSizedOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := 0; i < 400; i++ {
		scale := int64(math.Pow(10, float64(r.IntN(10)))) // |coordinates| up to 10^0 … 10^9
		coord := func() int32 {
			if r.IntN(50) == 0 {
				return []int32{math.MinInt32, math.MaxInt32, 0}[r.IntN(3)]
			}
			return int32(max(math.MinInt32, min(math.MaxInt32, r.Int64N(2*scale+1)-scale)))
		}
		lattice := func() float64 { // a point of the 1/400 lattice, in squares, as lines carry them
			return float64(r.Int64N(2*400*min(scale, engine.MaxCoord)+1)-400*min(scale, engine.MaxCoord)) / 400
		}
		res := &engine.Result{Template: engine.Template{Text: "Cir50h100"}, Direction: "NE"}
		base := [3]int32{coord(), coord(), coord()}
		for n := r.IntN(3000); len(res.Cells) < n; {
			c := base
			for k := range c {
				if r.IntN(2) == 0 {
					c[k] = coord()
				}
			}
			res.Cells = append(res.Cells, c)
		}
		res.Count = len(res.Cells)
		for n := r.IntN(40); len(res.Targets) < n; {
			tg := engine.Target{ID: "token-" + strconv.Itoa(r.IntN(1e6)), InArea: true, Cover: "light", Bonus: 2}
			for m := r.IntN(50); len(tg.Lines) < m; {
				tg.Lines = append(tg.Lines, engine.Line{From: [3]float64{lattice(), lattice(), lattice()}, To: [3]float64{lattice(), lattice(), lattice()}, Blocked: r.IntN(2) == 0})
			}
			if r.IntN(3) == 0 {
				tg.Roll = &engine.Roll{Dice: []int{r.IntN(10), r.IntN(10), r.IntN(10)}, Total: r.IntN(30), Defence: r.IntN(30), Hit: true}
			}
			res.Targets = append(res.Targets, tg)
		}
		out := EncodeResult(res)
		room := answerSize(res)
		if len(out) > room {
			t.Fatalf("result %d (scale %d, %d cells, %d targets): answer %d bytes, room made %d: encode grew it", i, scale, len(res.Cells), len(res.Targets), len(out), room)
		}
		if room > 3*len(out)+1024 {
			t.Fatalf("result %d (scale %d, %d cells, %d targets): room %d for an answer of %d bytes", i, scale, len(res.Cells), len(res.Targets), room, len(out))
		}
	}
}

// TestDecimalWidth holds decimalWidth to strconv's length at every power of ten and either side
// of it, the int32 ends, and at random.
func TestDecimalWidth(t *testing.T) {
	vs := []int64{0, math.MinInt32, math.MaxInt32}
	for p := int64(1); p <= 1e9; p *= 10 {
		vs = append(vs, p-1, p, p+1, -p+1, -p, -p-1)
	}
	r := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 10000; i++ {
		vs = append(vs, int64(r.Int32())>>r.IntN(31), -int64(r.Int32())>>r.IntN(31))
	}
	for _, v := range vs {
		if v < math.MinInt32 || v > math.MaxInt32 {
			continue
		}
		if got, want := decimalWidth(int32(v)), len(strconv.FormatInt(v, 10)); got != want {
			t.Fatalf("decimalWidth(%d) = %d, want %d", v, got, want)
		}
	}
}
