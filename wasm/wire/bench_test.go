package wire

import (
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

// bigRequest is the CONTRACT request with n more obstacles and tokens.
func bigRequest(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"template": "Cir20", "caster": {"id": "hero", "x": 5, "y": 5}, "origin": {"x": 20, "y": 20, "z": 0}, "range": 30, "obstacles": [`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"x": ` + strconv.Itoa(i%97) + `, "y": ` + strconv.Itoa(i/97) + `, "z": 0, "fill": 0.5}`)
	}
	b.WriteString(`], "tokens": [`)
	for i := 0; i < n/10; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"id": "t` + strconv.Itoa(i) + `", "x": ` + strconv.Itoa(i%50) + `, "y": ` + strconv.Itoa(i/50) + `, "size": "Medium", "side": "enemy"}`)
	}
	b.WriteString(`]}`)
	return []byte(b.String())
}

func BenchmarkDecodeRequest(b *testing.B) {
	for _, c := range []struct {
		name string
		body []byte
	}{{"contract", []byte(contractRequest)}, {"10k-obstacles", bigRequest(10000)}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.body)))
			for b.Loop() {
				if _, err := DecodeRequest(c.body); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchResult() *engine.Result {
	r := rand.New(rand.NewPCG(9, 9))
	res := &engine.Result{Template: engine.Template{Notation: "Cir20", Rules: "tdgs", Shape: "circle", Radius: 20, Height: 20}, OriginVisible: true}
	for i := 0; i < 41*41; i++ {
		res.Cells = append(res.Cells, [3]int32{int32(i % 41), int32(i / 41), 0})
	}
	res.Count = len(res.Cells)
	for i := 0; i < 200; i++ {
		t := engine.Target{ID: "t" + strconv.Itoa(i), InArea: true, Affected: true, Cover: "partial", Bonus: 2, Blocked: 2}
		for k := 0; k < 6; k++ {
			t.Lines = append(t.Lines, engine.Line{From: [3]float64{20.5, 20.5, 0.5}, To: [3]float64{float64(r.IntN(16000)) / 400, float64(r.IntN(16000)) / 400, 0.3025}})
		}
		res.Targets = append(res.Targets, t)
	}
	return res
}

func BenchmarkEncodeResult(b *testing.B) {
	res := benchResult()
	b.SetBytes(int64(len(EncodeResult(res))))
	for b.Loop() {
		EncodeResult(res)
	}
}

// BenchmarkEncodeResultJSON is encoding/json on the same result, for comparison.
func BenchmarkEncodeResultJSON(b *testing.B) {
	res := benchResult()
	for b.Loop() {
		json.Marshal(res)
	}
}
