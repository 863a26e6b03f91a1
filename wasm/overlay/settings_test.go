package main

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/engine"
)

func TestSettingsDefaults(t *testing.T) {
	s, err := newSettings(&rawOptions{}, "attach: options")
	if err != nil {
		t.Fatal(err)
	}
	if s.geo != (geometry{cell: 32}) || s.dpr != 0 || s.width != 0 || s.height != 0 {
		t.Errorf("defaults: %+v", s)
	}
	if s.view != (view{outline: true, badges: true, walls: true, unlisted: true, otherLevels: 1}) {
		t.Errorf("default view: %+v", s.view)
	}
	if s.pal.c != defaultColours || s.pal.side("party") != "#1e6fd9" {
		t.Error("default palette")
	}
}

func TestSettingsGiven(t *testing.T) {
	raw := &rawOptions{
		cellSize: optNum{20, true}, offsetX: optNum{7, true}, offsetY: optNum{-11.5, true},
		dpr: optNum{2, true}, width: optNum{300, true}, height: optNum{240, true},
		sides:  map[string]string{"ally": "#0a0", "enemy": "crimson"},
		badges: map[string]string{"full": "black"},
		view:   rawView{selected: optStr{"orc", true}, lines: optStr{"all", true}, tokens: optStr{"disc", true}, labels: optBool{true, true}, level: optNum{2, true}},
	}
	raw.colours[cArea] = optStr{"rgba(0, 0, 255, 0.3)", true}
	s, err := newSettings(raw, "attach: options")
	if err != nil {
		t.Fatal(err)
	}
	if s.geo != (geometry{cell: 20, ox: 7, oy: -11.5}) || s.dpr != 2 || s.width != 300 || s.height != 240 {
		t.Errorf("geometry: %+v", s)
	}
	if s.pal.c[cArea] != "rgba(0, 0, 255, 0.3)" || s.pal.c[cAreaEdge] != defaultColours[cAreaEdge] {
		t.Error("one colour replaced, the others kept")
	}
	if s.pal.side("ally") != "#0a0" || s.pal.side("enemy") != "crimson" || s.pal.side("party") != "#1e6fd9" {
		t.Error("sides: added, replaced, kept")
	}
	if bg, _ := s.pal.badge(engine.GradeFull); bg != "black" {
		t.Error("badges")
	}
	want := view{selected: "orc", lines: linesAll, tokens: tokensDisc, outline: true, badges: true, labels: true, walls: true, level: 2, unlisted: true, otherLevels: 1}
	if s.view != want {
		t.Errorf("view %+v, want %+v", s.view, want)
	}
	// The defaults stay the defaults: a palette is a copy.
	if defaultSides["enemy"] != "#d32f2f" || defaultBadges["full"] != "#c62828" {
		t.Error("newSettings changed the default palette")
	}
}

func TestSettingsRefused(t *testing.T) {
	for _, c := range []struct {
		raw  rawOptions
		want string
	}{
		{rawOptions{cellSize: optNum{0, true}}, "attach: options.cellSize: expected a number of CSS pixels above 0 and at most 1000, got 0"},
		{rawOptions{cellSize: optNum{-20, true}}, "options.cellSize"},
		{rawOptions{cellSize: optNum{math.NaN(), true}}, "got NaN"},
		{rawOptions{cellSize: optNum{1001, true}}, "options.cellSize"},
		{rawOptions{offsetX: optNum{math.Inf(1), true}}, "options.offset.x"},
		{rawOptions{offsetY: optNum{-2e7, true}}, "options.offset.y"},
		{rawOptions{dpr: optNum{0, true}}, "options.devicePixelRatio"},
		{rawOptions{dpr: optNum{9, true}}, "options.devicePixelRatio"},
		{rawOptions{width: optNum{0, true}}, "options.width"},
		{rawOptions{height: optNum{20000, true}}, "options.height"},
		{rawOptions{sides: map[string]string{"ally": ""}}, `options.colours.sides["ally"]: expected a CSS colour`},
		{rawOptions{badges: map[string]string{"full": strings.Repeat("a", 257)}}, `options.colours.badges["full"]`},
		{rawOptions{view: rawView{lines: optStr{"some", true}}}, `options.lines: expected selected, all or none, got "some"`},
		{rawOptions{view: rawView{tokens: optStr{"square", true}}}, `options.tokens: expected ring, disc or none`},
		{rawOptions{view: rawView{level: optNum{0.5, true}}}, "options.level: expected an integer"},
		{rawOptions{view: rawView{level: optNum{2e6, true}}}, "options.level"},
	} {
		s, err := newSettings(&c.raw, "attach: options")
		if err == nil || s != nil {
			t.Errorf("%+v: accepted", c.raw)
			continue
		}
		if err.Code != engine.CodeBadRequest || !strings.Contains(err.Message, c.want) {
			t.Errorf("%+v: %s: %s, want a bad_request containing %q", c.raw, err.Code, err.Message, c.want)
		}
	}
	// A long key or value is named by its first 64 bytes, never echoed whole (as the engine's
	// messages do, CONTRACT Errors).
	long := strings.Repeat("k", 1<<20)
	for _, raw := range []rawOptions{{sides: map[string]string{long: ""}}, {view: rawView{lines: optStr{long, true}}}} {
		_, err := newSettings(&raw, "attach: options")
		if err == nil || len(err.Message) > 256 || !strings.Contains(err.Message, `"`+long[:64]+`…"`) {
			t.Errorf("a text of 1 MiB: %.300v", err)
		}
	}
	raw := rawOptions{}
	raw.colours[cWall] = optStr{"", true}
	if _, err := newSettings(&raw, "attach: options"); err == nil || !strings.Contains(err.Message, "options.colours.wall:") {
		t.Errorf("an empty colour: %v", err)
	}
}

// draw's view overrides attach's, field by field; selected: null unselects.
func TestViewWith(t *testing.T) {
	base := view{selected: "orc", lines: linesAll, outline: true, badges: true, walls: true}
	v, err := base.with(&rawView{outline: optBool{false, true}, lines: optStr{"none", true}}, "draw: view")
	if err != nil {
		t.Fatal(err)
	}
	if want := (view{selected: "orc", lines: linesNone, badges: true, walls: true}); v != want {
		t.Errorf("%+v, want %+v", v, want)
	}
	if v, _ := base.with(&rawView{selectedNull: true}, "draw: view"); v.selected != "" {
		t.Error("selected: null keeps the selection")
	}
	if v, _ := base.with(&rawView{}, "draw: view"); v != base {
		t.Error("an empty view changes the defaults")
	}
	if _, err := base.with(&rawView{lines: optStr{"All", true}}, "draw: view"); err == nil || !strings.HasPrefix(err.Message, "draw: view.lines:") {
		t.Errorf("a bad view: %v", err)
	}
}

// The view's fields added for drawing from a scene (the demo's): focus (null: the selected
// token's), unlisted, otherLevels (an opacity), details, and a draw's own cellSize and offset,
// checked as attach's are; geometry applies them to attach's.
func TestViewMore(t *testing.T) {
	base := defaultView()
	base.selected = "orc"
	v, err := base.with(&rawView{focus: optStr{"elf", true}, unlisted: optBool{false, true}, details: optBool{true, true},
		otherLevels: optNum{0.3, true}, cellSize: optNum{24, true}, offsetX: optNum{-48, true}}, "draw: view")
	if err != nil {
		t.Fatal(err)
	}
	if v.focus != "elf" || v.focused() != "elf" || v.unlisted || !v.details || v.otherLevels != 0.3 || v.cellSize != 24 || !v.hasOffset || v.offset != [2]float64{-48, 0} {
		t.Errorf("%+v", v)
	}
	if g := v.geometry(geometry{cell: 32, ox: 5, oy: 6}); g != (geometry{cell: 24, ox: -48, oy: 0}) {
		t.Errorf("geometry %+v", g)
	}
	if g := base.geometry(geometry{cell: 32, ox: 5, oy: 6}); g != (geometry{cell: 32, ox: 5, oy: 6}) {
		t.Errorf("no geometry of its own: %+v", g)
	}
	if base.focused() != "orc" {
		t.Error("without a focus, the selected token's lines")
	}
	if w, _ := v.with(&rawView{focusNull: true}, "draw: view"); w.focus != "" || w.focused() != "orc" {
		t.Error("focus: null is the selected token again")
	}
	for _, c := range []struct {
		raw  rawView
		want string
	}{
		{rawView{otherLevels: optNum{1.5, true}}, "draw: view.otherLevels: expected an opacity from 0 to 1, got 1.5"},
		{rawView{otherLevels: optNum{-0.1, true}}, "draw: view.otherLevels"},
		{rawView{otherLevels: optNum{math.NaN(), true}}, "draw: view.otherLevels"},
		{rawView{cellSize: optNum{0, true}}, "draw: view.cellSize: expected a number of CSS pixels above 0 and at most 1000, got 0"},
		{rawView{cellSize: optNum{1001, true}}, "draw: view.cellSize"},
		{rawView{offsetY: optNum{math.Inf(-1), true}}, "draw: view.offset.y: expected a number of CSS pixels"},
	} {
		if _, err := base.with(&c.raw, "draw: view"); err == nil || err.Code != engine.CodeBadRequest || !strings.HasPrefix(err.Message, c.want) {
			t.Errorf("%+v: %v, want %q", c.raw, err, c.want)
		}
	}
}

func TestCanvasColour(t *testing.T) {
	for _, c := range []struct {
		in   string
		want [4]byte
		ok   bool
	}{
		{"#e07b00", [4]byte{0xe0, 0x7b, 0, 255}, true},
		{"#FFD400", [4]byte{255, 0xd4, 0, 255}, true},
		{"rgba(255, 140, 0, 0.36)", [4]byte{255, 140, 0, 92}, true},
		{"rgba(11, 98, 214, 0.18)", [4]byte{11, 98, 214, 46}, true},
		{"rgba(0, 0, 0, 0)", [4]byte{}, true},
		{"rgb(1, 2, 3)", [4]byte{1, 2, 3, 255}, true},
		{"#e07b0", [4]byte{}, false},
		{"#e07b0g", [4]byte{}, false},
		{"rgba(1, 2)", [4]byte{}, false},
		{"rgba(1, 2, 3, 0.5, 7)", [4]byte{}, false},
		{"rgba(1, x, 3, 0.5)", [4]byte{}, false},
		{"color(display-p3 1 0 0)", [4]byte{}, false},
		{"", [4]byte{}, false},
	} {
		got, ok := canvasColour(c.in)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("canvasColour(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
}

// TestCanvasColourChannels holds rgb()'s and rgba()'s numbers to their exact values (math/big),
// clamped, scaled (an alpha by 255) and rounded half up: every channel 0 to 255 with and without
// decimals, alphas with up to 9 decimals, at and beside every half of 1/255, and out of range.
func TestCanvasColourChannels(t *testing.T) {
	ref := func(text string, alpha bool) byte {
		r, ok := new(big.Rat).SetString(text)
		if !ok {
			t.Fatalf("bad reference number %q", text)
		}
		hi := big.NewRat(255, 1)
		if alpha {
			hi = big.NewRat(1, 1)
		}
		if r.Sign() < 0 {
			r.SetInt64(0)
		}
		if r.Cmp(hi) > 0 {
			r.Set(hi)
		}
		if alpha {
			r.Mul(r, big.NewRat(255, 1))
		}
		r.Add(r, big.NewRat(1, 2)) // ⌊v + ½⌋: halves up
		q := new(big.Int).Quo(r.Num(), r.Denom())
		return byte(q.Int64())
	}
	var texts []string
	for v := 0; v <= 2600; v++ {
		texts = append(texts, strconv.Itoa(v/10)+"."+strconv.Itoa(v%10), strconv.Itoa(v/10))
	}
	rng := rand.New(rand.NewPCG(30, 1))
	for k := 0; k < 510; k++ { // the halves of 1/255: (2k+1)/510, written to 9 decimals, and beside them
		n := (2*k + 1) * 1_000_000_000 / 510
		for _, m := range []int{n - 1, n, n + 1} {
			texts = append(texts, "0."+fmt.Sprintf("%09d", m))
		}
		texts = append(texts, "0."+fmt.Sprintf("%0*d", 1+rng.IntN(9), rng.IntN(1_000_000_000)))
	}
	texts = append(texts, "0", "-0", "1", "1.0", "1.000000001", "-1", "-0.5", "0.5", "0.1", "256", "1e2", "2.55e2", "1E-1",
		"99999999999999999999999", "-99999999999999999999999", "0.0000000001", "1e400", "1e-400")
	for _, text := range texts {
		for _, alpha := range []bool{false, true} {
			in := "rgb(" + text + ", 0, 0)"
			at := 0
			if alpha {
				in, at = "rgba(0, 0, 0, "+text+")", 3
			}
			if r, err := strconv.ParseFloat(text, 64); alpha && err == nil && r > 0 && r < 1 && len(text) > 11 {
				continue // past the ninth decimal (not read: see channel)
			}
			px, ok := canvasColour(in)
			if want := ref(text, alpha); !ok || px[at] != want {
				t.Errorf("canvasColour(%q) = %v, %v; channel %d want %d", in, px, ok, at, want)
			}
		}
	}
	for _, bad := range []string{"rgb(.5, 0, 0)", "rgb(5., 0, 0)", "rgb(+5, 0, 0)", "rgb(Inf, 0, 0)", "rgb(NaN, 0, 0)", "rgb(0x1, 0, 0)", "rgb(1_0, 0, 0)", "rgba(0, 0, 0, )", "rgb(0, 0, 0"} {
		if px, ok := canvasColour(bad); ok {
			t.Errorf("canvasColour(%q) = %v, true; want not read", bad, px)
		}
	}
}
