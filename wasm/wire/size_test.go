package wire

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

// TestAnswerSizedOnce: encode makes room for an evaluate's or a cover's answer once
// (answerSize), so that it never grows it: for results of every scale of coordinates (from a
// board near the origin to the int32 ends), lines near and far, template texts and ids that
// escape, the answer fits the room, and the room is not more than about twice it. The room is
// checked against the encoded length, not against answerSize's own arithmetic.
func TestAnswerSizedOnce(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	text := func() string {
		switch r.IntN(4) {
		case 0:
			return trickyStrings[r.IntN(len(trickyStrings))]
		case 1: // a template as sent, padded (it is echoed as it came)
			return strings.Repeat(" ", r.IntN(5000)) + "Cir50h100" + strings.Repeat("\u2028\x01\"", r.IntN(2000))
		}
		return "token-" + strconv.Itoa(r.IntN(1e6))
	}
	for i := 0; i < 600; i++ {
		scale := int64(math.Pow(10, float64(r.IntN(10)))) // |coordinates| up to 10^0 … 10^9
		coord := func() int32 {
			if r.IntN(50) == 0 {
				return []int32{math.MinInt32, math.MaxInt32, 0}[r.IntN(3)]
			}
			return int32(max(math.MinInt32, min(math.MaxInt32, r.Int64N(2*scale+1)-scale)))
		}
		lattice := func() float64 { // a point of the 1/400 lattice, in squares, as lines carry them
			if r.IntN(200) == 0 {
				return trickyFloats[r.IntN(len(trickyFloats))] // any other float
			}
			return float64(r.Int64N(2*400*min(scale, engine.MaxCoord)+1)-400*min(scale, engine.MaxCoord)) / 400
		}
		lines := func(m int) []engine.Line {
			var l []engine.Line
			for len(l) < m {
				l = append(l, engine.Line{From: [3]float64{lattice(), lattice(), lattice()}, To: [3]float64{lattice(), lattice(), lattice()}, Blocked: r.IntN(2) == 0})
			}
			return l
		}
		res := &engine.Result{Template: engine.Template{Text: text()}, Direction: "NE"}
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
			tg := engine.Target{ID: text(), InArea: true, Cover: "light", Bonus: 2, Lines: lines(r.IntN(50))}
			if r.IntN(3) == 0 {
				tg.Roll = &engine.Roll{Dice: []int{r.IntN(10), math.MinInt64, r.IntN(10)}, Total: math.MinInt64, Defence: math.MaxInt64, Hit: true}
			}
			res.Targets = append(res.Targets, tg)
		}
		cov := &engine.CoverResult{Grade: "half", Bonus: 2, Blocked: math.MaxInt32, Total: math.MinInt32, From: [3]int32{coord(), coord(), coord()}, Lines: lines(r.IntN(300))}
		for _, c := range []struct {
			what string
			v    any
		}{{"result", res}, {"cover", cov}} {
			out, err := encode(c.v)
			if err != nil || out == nil {
				t.Fatalf("%s %d: %v", c.what, i, err)
			}
			room := answerSize(c.v)
			if len(out) > room {
				t.Fatalf("%s %d (scale %d, %d cells, %d targets): answer %d bytes, room made %d: encode grew it", c.what, i, scale, len(res.Cells), len(res.Targets), len(out), room)
			}
			if room > 2*len(out)+1024 {
				t.Fatalf("%s %d (scale %d, %d cells, %d targets): room %d for an answer of %d bytes", c.what, i, scale, len(res.Cells), len(res.Targets), room, len(out))
			}
		}
	}
}

// TestDecimalWidth holds decimalWidth to strconv's length at every power of ten and either side
// of it, the int32 and int64 ends, and at random.
func TestDecimalWidth(t *testing.T) {
	vs := []int64{0, math.MinInt32, math.MaxInt32, math.MinInt64, math.MaxInt64}
	for p := int64(1); p <= 1e18; p *= 10 {
		vs = append(vs, p-1, p, p+1, -p+1, -p, -p-1)
	}
	r := rand.New(rand.NewPCG(13, 14))
	for i := 0; i < 10000; i++ {
		vs = append(vs, r.Int64()>>r.IntN(63), -r.Int64()>>r.IntN(63))
	}
	for _, v := range vs {
		if got, want := decimalWidth(v), len(strconv.FormatInt(v, 10)); got != want {
			t.Fatalf("decimalWidth(%d) = %d, want %d", v, got, want)
		}
	}
}

// TestRooms holds strRoom and floatRoom to what appendString and appendFloat write: every
// tricky string and float, lattice points near and far, random bytes.
func TestRooms(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	f := filler{r}
	strs := append([]string{strings.Repeat("\u2028", 1000), strings.Repeat("\xff", 1000), strings.Repeat("\x00", 1000)}, trickyStrings...)
	for i := 0; i < 20000; i++ {
		strs = append(strs, f.string())
	}
	for _, s := range strs {
		if got, room := len(appendString(nil, s)), strRoom(s); got > room {
			t.Fatalf("%q writes %d bytes, strRoom %d", s, got, room)
		}
	}
	floats := append([]float64{}, trickyFloats...)
	for i := 0; i < 20000; i++ {
		k := r.Int64N(2*400*engine.MaxCoord+1) - 400*engine.MaxCoord
		floats = append(floats, float64(k)/400, float64(k>>r.IntN(40))/400, f.float())
	}
	for _, v := range floats {
		out, ok := appendFloat(nil, v)
		if got, room := len(out), floatRoom(v); ok && got > room {
			t.Fatalf("%v writes %q, %d bytes; floatRoom %d", v, out, got, room)
		}
	}
}

// TestAnswerSizedOnce_EngineResults: the engine's own answers fit their room, for templates of
// every rule set and shape placed from near the origin to the coordinates' limit, with tokens
// in them (cover lines) — the fixed part of the room, the template's and origin's fields, too
// (a far Lin1000SWw10h100 outgrew a room of 256 for them by 8 bytes).
func TestAnswerSizedOnce_EngineResults(t *testing.T) {
	templates := []string{"Lin1000SWw10h100", "Lin20SWw3h100", "Lin9NEw2", "Con6NW", "Cir3h2", "Rec4x7h3", "3 burst", "2 aura", "3 cube", "1 burst"}
	// The review's case: a million cells of a line from a caster at the limit.
	res, err := engine.Evaluate(&engine.Request{Template: engine.TemplateRef{Text: "Lin1000SWw10h100"},
		Caster: &engine.Token{X: -engine.MaxCoord, Y: -engine.MaxCoord, Z: -engine.MaxCoord}})
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := encode(res); len(out) > answerSize(res) {
		t.Errorf("Lin1000SWw10h100 from the limit: answer %d bytes, room %d", len(out), answerSize(res))
	}
	for _, far := range []int{0, -999, 12345, -999000, engine.MaxCoord - 30, -engine.MaxCoord + 30} {
		for _, text := range templates {
			at := engine.Pos{X: far, Y: far, Z: far}
			req := &engine.Request{Template: engine.TemplateRef{Text: text}, Caster: &engine.Token{ID: "caster-with-a-long-id", X: far, Y: far, Z: far, Size: 2},
				Tokens: []engine.Token{{ID: "a", X: far + 1, Y: far + 1, Z: far, Size: 3}, {ID: "b", X: far - 2, Y: far - 1, Z: far}}}
			if !strings.Contains(text, "burst") && !strings.Contains(text, "aura") && !strings.Contains(text, "cube") {
				req.Origin = &at
			}
			for _, tokens := range [][]engine.Token{req.Tokens, nil} { // with targets' room and without
				req.Tokens = tokens
				res, err := engine.Evaluate(req)
				if err != nil {
					t.Fatalf("%s at %d: %v", text, far, err)
				}
				out, _ := encode(res)
				if room := answerSize(res); len(out) > room {
					t.Errorf("%s at %d, %d tokens: answer %d bytes, room %d", text, far, len(tokens), len(out), room)
				}
			}
		}
	}
}
