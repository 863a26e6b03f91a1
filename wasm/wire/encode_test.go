package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"
	"unicode/utf8"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/fullattack"
)

// stdJSON is the reference: encoding/json with SetEscapeHTML(false), no trailing newline.
func stdJSON(t testing.TB, v any) []byte {
	t.Helper()
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		t.Fatalf("encoding/json: %v", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Strings that exercise every escaping rule.
var trickyStrings = []string{
	"", "g1", "hero", "a\"b", `back\slash`, "<script>&amp;</script>", "tab\there", "nl\nx", "\r\b\f",
	"\x00\x01\x1f\x7f", "é", "日本語", "😀", "\u2028\u2029", "bad \xff utf8", "\xc3", "\xed\xa0\x80",
	"\xf4\x90\x80\x80", "\ufffd", "'single'", "/slash", "\u00a0", "\ufeffbom", "mixed\x00é\u2028\xfe",
}

var trickyFloats = []float64{
	0, math.Copysign(0, -1), 1, -1, 0.5, 0.3, 7.0025, 3.9975, 5.5, 1e-6, 9.99999e-7, 1e-7, 1e20, 1e21,
	-1e21, 123456789012345678, 1e100, 5e-324, math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
	1.0 / 3, 2.0 / 3, 0.1 + 0.2, 1e-9, 1.5e-10, 4e300,
}

// filler sets every field of a value at random, reaching new fields without being told.
type filler struct{ r *rand.Rand }

func (f filler) string() string {
	if f.r.IntN(3) == 0 {
		return trickyStrings[f.r.IntN(len(trickyStrings))]
	}
	b := make([]byte, f.r.IntN(12))
	for i := range b {
		switch f.r.IntN(4) {
		case 0:
			b[i] = byte(f.r.IntN(256))
		default:
			b[i] = byte(0x20 + f.r.IntN(0x5f))
		}
	}
	if f.r.IntN(4) == 0 {
		return string(b) + string(rune(f.r.IntN(0x110000)))
	}
	return string(b)
}

func (f filler) int() int64 {
	switch f.r.IntN(5) {
	case 0:
		return 0
	case 1:
		return int64(f.r.IntN(20))
	case 2:
		return -int64(f.r.IntN(1000))
	case 3:
		return int64(f.r.Int32())
	}
	return f.r.Int64() - math.MaxInt64/2
}

func (f filler) float() float64 {
	switch f.r.IntN(4) {
	case 0:
		return trickyFloats[f.r.IntN(len(trickyFloats))]
	case 1:
		return float64(f.r.IntN(4000)) / 400 // the engine's 1/400 lattice
	case 2:
		for {
			v := math.Float64frombits(f.r.Uint64())
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				return v
			}
		}
	}
	return (f.r.Float64() - 0.5) * math.Pow(10, float64(f.r.IntN(60)-30))
}

func (f filler) fill(v reflect.Value, depth int) {
	switch v.Kind() {
	case reflect.String:
		v.SetString(f.string())
	case reflect.Int, reflect.Int64, reflect.Int32:
		v.SetInt(f.int())
	case reflect.Uint64, reflect.Uint, reflect.Uint32:
		v.SetUint(f.r.Uint64() >> f.r.IntN(64))
	case reflect.Bool:
		v.SetBool(f.r.IntN(2) == 0)
	case reflect.Float64:
		v.SetFloat(f.float())
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			f.fill(v.Index(i), depth)
		}
	case reflect.Slice:
		switch n := f.r.IntN(7); {
		case n == 0:
			v.SetZero()
		case n == 1:
			v.Set(reflect.MakeSlice(v.Type(), 0, 0))
		default:
			if depth > 3 {
				n = 1
			}
			s := reflect.MakeSlice(v.Type(), n-1, n-1)
			for i := 0; i < s.Len(); i++ {
				f.fill(s.Index(i), depth+1)
			}
			v.Set(s)
		}
	case reflect.Pointer:
		if f.r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		p := reflect.New(v.Type().Elem())
		f.fill(p.Elem(), depth+1)
		v.Set(p)
	case reflect.Map:
		if f.r.IntN(3) == 0 {
			v.SetZero()
			return
		}
		m := reflect.MakeMap(v.Type())
		for i := f.r.IntN(4); i > 0; i-- {
			k := reflect.New(v.Type().Key()).Elem()
			e := reflect.New(v.Type().Elem()).Elem()
			f.fill(k, depth+1)
			f.fill(e, depth+1)
			m.SetMapIndex(k, e)
		}
		v.Set(m)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				f.fill(v.Field(i), depth)
			}
		}
	default:
		panic("filler: unhandled kind " + v.Kind().String())
	}
}

func randomValue[T any](r *rand.Rand) *T {
	v := new(T)
	filler{r}.fill(reflect.ValueOf(v).Elem(), 0)
	return v
}

// errorWrapper is the error body's Go form.
type errorWrapper struct {
	Error *engine.Error `json:"error"`
}

// errorBody is the error body's reference: errorWrapper's, but for "at", which a full attack's
// step index (Step) puts on the wire even when it is 0.
func errorBody(e *engine.Error) any {
	if !e.Step {
		return errorWrapper{e}
	}
	type body struct {
		Code    engine.Code `json:"code"`
		Message string      `json:"message"`
		Field   string      `json:"field,omitempty"`
		At      int         `json:"at"`
	}
	return struct {
		Error body `json:"error"`
	}{body{e.Code, e.Message, e.Field, e.At}}
}

func checkSame(t *testing.T, what string, got, want []byte) {
	t.Helper()
	if !bytes.Equal(got, want) {
		t.Fatalf("%s differs from encoding/json:\n got %s\nwant %s", what, got, want)
	}
}

// TestEncodeMatchesEncodingJSON fills every field of every encoded type at random and compares
// the bytes with encoding/json's.
func TestEncodeMatchesEncodingJSON(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	n := 3000
	if testing.Short() {
		n = 300
	}
	for i := 0; i < n; i++ {
		res := randomValue[engine.Result](r)
		checkSame(t, "Result", EncodeResult(res), stdJSON(t, res))

		tpl := randomValue[engine.Template](r)
		checkSame(t, "Template", EncodeTemplate(tpl), stdJSON(t, tpl))

		mv := randomValue[engine.MoveResult](r)
		checkSame(t, "MoveResult", EncodeMoveResult(mv), stdJSON(t, mv))

		e := randomValue[engine.Error](r)
		checkSame(t, "Error", Error(e), stdJSON(t, errorBody(e)))

		fr := randomValue[fullattack.Result](r)
		out, _ := encode(fr)
		checkSame(t, "fullattack.Result", out, stdJSON(t, fr))

		v := randomValue[engine.VersionInfo](r)
		out, _ = encode(v)
		checkSame(t, "VersionInfo", out, stdJSON(t, v))
	}
	checkSame(t, "Version", Version(), stdJSON(t, engine.About()))
}

// TestEncodeEdgeValues covers what random values may miss: nil versus empty lists, zero values,
// every tricky string and float.
func TestEncodeEdgeValues(t *testing.T) {
	f := false
	tru := true
	cases := []any{
		&engine.Result{},
		&engine.Result{Cells: [][3]int32{}, Targets: []engine.Target{}},
		&engine.Result{Targets: []engine.Target{{Lines: []engine.Line{}}, {Roll: &engine.Roll{}}, {Roll: &engine.Roll{Dice: []int{}}}}},
		&engine.Template{},
		&engine.Template{Close: &f},
		&engine.Template{Close: &tru, Text: "x"},
		&engine.MoveResult{},
		&engine.MoveResult{Path: [][3]int32{}, Collision: &engine.Collision{}},
		// Steps whose every field may be left out: none, one, the first or a later one first.
		&fullattack.Result{},
		&fullattack.Result{Steps: []fullattack.PricedStep{{}, {Drop: "off"}, {Attack: "main", Head: 2}, {Hands: []string{}}, {Extra: true},
			{Item: &fullattack.Item{}}, {Parts: &fullattack.Parts{}}}, Next: []fullattack.PricedStep{}},
	}
	for _, s := range trickyStrings {
		cases = append(cases, &engine.Template{Text: s, Notation: s, Rules: engine.Rules(s), Shape: s, Direction: s, Orientation: s})
	}
	for _, x := range trickyFloats {
		cases = append(cases, &engine.Result{Targets: []engine.Target{{Lines: []engine.Line{{From: [3]float64{x, -x, x / 3}}}}}})
	}
	for _, c := range cases {
		var got []byte
		switch v := c.(type) {
		case *engine.Result:
			got = EncodeResult(v)
		case *engine.Template:
			got = EncodeTemplate(v)
		case *engine.MoveResult:
			got = EncodeMoveResult(v)
		case *fullattack.Result:
			got, _ = encode(v)
		}
		checkSame(t, reflect.TypeOf(c).String(), got, stdJSON(t, c))
	}
	checkSame(t, "nil Template", EncodeTemplate(nil), stdJSON(t, (*engine.Template)(nil)))
	checkSame(t, "nil MoveResult", EncodeMoveResult(nil), stdJSON(t, (*engine.MoveResult)(nil)))
}

// TestEncodeNonFinite: encoding/json refuses NaN and infinities; so does EncodeResult.
func TestEncodeNonFinite(t *testing.T) {
	for _, x := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := &engine.Result{Targets: []engine.Target{{Lines: []engine.Line{{To: [3]float64{0, x, 0}}}}}}
		if got := EncodeResult(r); got != nil {
			t.Errorf("EncodeResult with %v = %s, want nil", x, got)
		}
		if _, err := json.Marshal(r); err == nil {
			t.Errorf("encoding/json accepted %v", x)
		}
	}
	if EncodeResult(nil) != nil {
		t.Error("EncodeResult(nil) != nil")
	}
}

// TestStringEveryByte runs every byte and every rune class through appendString.
func TestStringEveryByte(t *testing.T) {
	var all []byte
	for b := 0; b < 256; b++ {
		all = append(all, byte(b))
		s := string([]byte{byte(b)})
		checkSame(t, "byte", appendString(nil, s), stdJSON(t, s))
	}
	checkSame(t, "all bytes", appendString(nil, string(all)), stdJSON(t, string(all)))
	for r := rune(0); r < 0x110000; r += 97 {
		s := "a" + string(r) + "b"
		checkSame(t, "rune", appendString(nil, s), stdJSON(t, s))
	}
	for _, r := range []rune{0x2027, 0x2028, 0x2029, 0x202a, 0xfffd, 0xfeff, 0x7f, 0x80, 0x7ff, 0x800, 0xffff, 0x10000, 0x10ffff} {
		s := string(r)
		checkSame(t, "rune", appendString(nil, s), stdJSON(t, s))
	}
}

func TestFloatFormats(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	check := func(x float64) {
		if math.IsInf(x, 0) {
			return
		}
		got, ok := appendFloat(nil, x)
		if !ok {
			t.Fatalf("appendFloat(%v) refused", x)
		}
		checkSame(t, "float", got, stdJSON(t, x))
	}
	for _, x := range trickyFloats {
		check(x)
		check(-x)
		check(math.Nextafter(x, math.Inf(1)))
		check(math.Nextafter(x, math.Inf(-1)))
	}
	for e := -330; e <= 310; e++ {
		x := math.Pow(10, float64(e))
		check(x)
		check(math.Nextafter(x, 0))
		check(-x)
	}
	for i := 0; i < 100000; i++ {
		x := math.Float64frombits(r.Uint64())
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			check(x)
		}
	}
	// Points in world units (lattice / 400, los.Point.World), which appendFloat writes without
	// strconv: every one near 0, random ones out to past MaxCoord cells, and the ends of its
	// fast path (2^40 / 400), each against encoding/json.
	for k := int64(-20000); k <= 20000; k++ {
		check(float64(k) / 400)
	}
	for range 200000 {
		k := r.Int64N(1<<41) - 1<<40
		check(float64(k) / 400)
		check(math.Nextafter(float64(k)/400, math.Inf(1)))
	}
	for _, k := range []int64{1<<40 - 1, 1 << 40, 1<<40 + 1, -(1<<40 - 1), -(1 << 40), 400_000_000, -400_000_000} {
		check(float64(k) / 400)
	}
	check(math.Copysign(0, -1))
}

func FuzzEncodeString(f *testing.F) {
	for _, s := range trickyStrings {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := appendString(nil, s)
		checkSame(t, "string", got, stdJSON(t, s))
		if !utf8.Valid(got) {
			t.Fatalf("appendString(%q) is not UTF-8", s)
		}
	})
}

func FuzzEncodeFloat(f *testing.F) {
	for _, x := range trickyFloats {
		f.Add(x)
	}
	f.Fuzz(func(t *testing.T, x float64) {
		got, ok := appendFloat(nil, x)
		if math.IsNaN(x) || math.IsInf(x, 0) {
			if ok {
				t.Fatalf("appendFloat(%v) accepted", x)
			}
			return
		}
		checkSame(t, "float", got, stdJSON(t, x))
	})
}

// FuzzEncodeResult draws whole results from a fuzzed seed.
func FuzzEncodeResult(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(42), uint64(7))
	f.Fuzz(func(t *testing.T, a, b uint64) {
		r := rand.New(rand.NewPCG(a, b))
		res := randomValue[engine.Result](r)
		checkSame(t, "Result", EncodeResult(res), stdJSON(t, res))
		mv := randomValue[engine.MoveResult](r)
		checkSame(t, "MoveResult", EncodeMoveResult(mv), stdJSON(t, mv))
	})
}
