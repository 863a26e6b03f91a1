package engine

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/core/internal/num"
	"github.com/aoekit/aoekit/core/los"
)

// The boards of the engine benchmarks as JSON requests, for `make bench` (web/bench/bench.mjs),
// which times the same scenes through the WebAssembly module in Node and in Chromium, and
// against peer libraries. math/rand/v2's PCG has no JavaScript twin, so the boards are written
// here, by benchScene itself, rather than generated again in JavaScript.
//
//	BENCH_DUMP=$PWD/build/bench/boards go test -count=1 -run '^TestDumpBenchBoards$' ./core/engine
//
// Each case is one file, name.json: {"name", "bench" (the Go benchmark it mirrors), "request"
// (the request in CONTRACT's JSON), "expect" (count, targets and cover segments of the native
// answer: the module must give the same)}, and for a case dragged through a scene frame by
// frame (issue 28's point-origin areas: pointDrag), "drag": {"bench" (the native benchmark of
// the drag), "about" (the drag in a line), "frames": [{"request" (the frame: the request
// without its board, which the scene holds), "expect"}]}. segments.json holds the segments of
// the peer comparison with fast-voxel-raycast (read by core/los's BenchmarkSegments too).

// benchCase is a request of the benchmarks under the name bench.mjs knows it by; drag, where
// set, is the frames of a drag of it through a scene (requests with the board, which the dump
// leaves out of each frame), timed natively by the benchmark dragBench.
type benchCase struct {
	name, bench string
	req         *Request
	drag        []*Request
	dragAbout   string
	dragBench   string
}

// benchCases builds the requests exactly as BenchmarkTypical, BenchmarkStress,
// BenchmarkBurstWalls, BenchmarkEvaluateWalls, BenchmarkScene and BenchmarkPoint do (issue 28's
// dnd5e sphere and line on the Typical board with 2 000 walls, each with pointDrag's drag), and
// the flat bursts of the field-of-view comparison (BenchmarkPeerFOV): the 5 and 20 bursts on
// the Typical board (60 × 60) without and with 500 of its thin walls, the 20 burst on the
// Stress board (500 × 500), and issue 11's target scene, a 30 burst on an 80 × 80 board of
// which 20 % of the squares are full obstacles (solidBoard).
func benchCases() []benchCase {
	typical := func() *Request {
		req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
		req.Template = TemplateRef{Text: "Cir6"}
		req.Origin = &Pos{38, 30, 0}
		return req
	}
	burst := func() *Request {
		req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
		req.Template = TemplateRef{Text: "5 burst"}
		req.Range = Range{}
		return req
	}
	stress := benchScene(2, 500, 2000, 20000, grid.Cell{}, grid.Cell{})
	stress.Template = TemplateRef{Text: "Cir60h1"}
	stress.Origin = &Pos{265, 250, 0}
	scattered := benchWalls(7, 60, 5000)
	walled := func(req *Request, n int) *Request { req.Walls = scattered[:n]; return req }

	// The field-of-view comparison: a Draw Steel "r burst" from the caster with barriers, flat
	// (bounds z 0…0 on the board's squares), without the tokens (no cover to grade: only which
	// squares the caster reaches).
	yes := true
	fov := func(req *Request, r, n int) *Request {
		req.Template = TemplateRef{Text: strconv.Itoa(r) + " burst"}
		req.Range = Range{}
		req.Tokens = nil
		req.Barriers = &yes
		req.Bounds = &Bounds{Max: [3]int{n - 1, n - 1, 0}}
		return req
	}
	// BenchmarkPoint's: its sub-benchmarks are named by the template, spaces made underscores.
	point := func(name, template string) benchCase {
		sub := "BenchmarkPoint/" + strings.ReplaceAll(template, " ", "_")
		drag, about := pointDrag(template)
		return benchCase{name: name, bench: sub + "/evaluate", req: pointBench(template),
			drag: drag, dragAbout: about, dragBench: sub + "/scene-dragged"}
	}
	return []benchCase{
		{name: "typical", bench: "BenchmarkTypical", req: typical()},
		{name: "stress", bench: "BenchmarkStress", req: stress},
		{name: "burstwalls", bench: "BenchmarkBurstWalls", req: burst()},
		{name: "walls-tdgs-Cir6-0", bench: "BenchmarkEvaluateWalls/tdgs-Cir6/walls=0", req: walled(typical(), 0)},
		{name: "walls-tdgs-Cir6-5000", bench: "BenchmarkEvaluateWalls/tdgs-Cir6/walls=5000", req: walled(typical(), 5000)},
		{name: "walls-drawsteel-5burst-0", bench: "BenchmarkEvaluateWalls/drawsteel-5burst/walls=0", req: walled(burst(), 0)},
		{name: "walls-drawsteel-5burst-5000", bench: "BenchmarkEvaluateWalls/drawsteel-5burst/walls=5000", req: walled(burst(), 5000)},
		{name: "fov-typical-r5", bench: "BenchmarkPeerFOV/typical-r5", req: fov(benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{}), 5, 60)},
		{name: "fov-typical-r5-walls500", bench: "BenchmarkPeerFOV/typical-r5-walls500", req: walled(fov(benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{}), 5, 60), 500)},
		{name: "fov-typical-r20", bench: "BenchmarkPeerFOV/typical-r20", req: fov(benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{}), 20, 60)},
		{name: "fov-typical-r20-walls500", bench: "BenchmarkPeerFOV/typical-r20-walls500", req: walled(fov(benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{}), 20, 60), 500)},
		{name: "fov-stress-r20", bench: "BenchmarkPeerFOV/stress-r20", req: fov(benchScene(2, 500, 2000, 20000, grid.Cell{}, grid.Cell{}), 20, 500)},
		{name: "fov-r30-solid20", bench: "BenchmarkPeerFOV/r30-solid20", req: fov(solidBoard(30, 80, 80*80/5), 30, 80)},
		point("point-sphere", pointSphere),
		point("point-line", pointLine),
	}
}

// solidBoard is a deterministic flat board of n × n squares (0…n−1, level 0) for the
// field-of-view comparison: the caster (size 1) at (n/2, n/2), no tokens, and exactly solid
// full obstacles (fill 1, z 0) on distinct squares other than the caster's, the first of a
// seeded shuffle of the squares, listed row by row.
func solidBoard(seed uint64, n, solid int) *Request {
	r := rand.New(rand.NewPCG(seed, 3))
	caster := (n/2)*n + n/2
	req := &Request{Caster: &Token{ID: "caster", X: n / 2, Y: n / 2, Size: 1, Side: "party", Facing: "N"}}
	picked := make([]bool, n*n)
	for _, k := range r.Perm(n * n) {
		if solid == 0 {
			break
		}
		if k != caster {
			picked[k] = true
			solid--
		}
	}
	for k, ok := range picked {
		if ok {
			req.Obstacles = append(req.Obstacles, Obstacle{X: k % n, Y: k / n, Fill: 1})
		}
	}
	return req
}

// wireRequest is a Request as CONTRACT's JSON spells it, for the fields the benchmarks set.
type wireRequest struct {
	Rules     Rules      `json:"rules,omitempty"`
	Template  string     `json:"template"`
	Caster    *Token     `json:"caster,omitempty"`
	Origin    *Pos       `json:"origin,omitempty"`
	Point     *Point     `json:"point,omitempty"`
	Toward    any        `json:"toward,omitempty"` // a compass name, a number of degrees or an aim *Point
	Range     *int       `json:"range,omitempty"`
	Tokens    []Token    `json:"tokens,omitempty"`
	Obstacles []Obstacle `json:"obstacles,omitempty"`
	Walls     []Wall     `json:"walls,omitempty"`
	Bounds    *Bounds    `json:"bounds,omitempty"`
	Barriers  *bool      `json:"barriers,omitempty"`
}

// toWire is req in CONTRACT's JSON; it fails on any field it would leave out, so that a
// benchmark that starts setting one is not silently dumped without it.
func toWire(t *testing.T, name string, req *Request) wireRequest {
	rest := *req
	rest.Rules, rest.Template, rest.Caster, rest.Origin, rest.Range = "", TemplateRef{}, nil, nil, Range{}
	rest.Point, rest.Toward = nil, Toward{}
	rest.Tokens, rest.Obstacles, rest.Walls, rest.Bounds, rest.Barriers = nil, nil, nil, nil, nil
	if !reflect.DeepEqual(rest, Request{}) || req.Template.Object != nil || (req.Range.Kind != RangeNone && req.Range.Kind != RangeSquares) {
		t.Fatalf("%s: the request sets a field the dump does not write: %+v", name, req)
	}
	var tokens []Token
	if req.Caster != nil {
		tokens = append(tokens, *req.Caster)
	}
	for _, tk := range append(tokens, req.Tokens...) {
		if tk.SizeName != "" {
			t.Fatalf("%s: token %s has a size name", name, tk.ID)
		}
	}
	w := wireRequest{Rules: req.Rules, Template: req.Template.Text, Caster: req.Caster, Origin: req.Origin, Point: req.Point,
		Tokens: req.Tokens, Obstacles: req.Obstacles, Walls: req.Walls, Bounds: req.Bounds, Barriers: req.Barriers}
	// toward is one of its three forms on the wire; a Toward that sets more than one, or degrees
	// without IsDegrees, has no JSON to write.
	switch tw := req.Toward; {
	case tw == Toward{}:
	case tw.Compass != "" && !tw.IsDegrees && tw.Degrees == 0 && tw.Aim == nil:
		w.Toward = tw.Compass
	case tw.IsDegrees && tw.Compass == "" && tw.Aim == nil:
		w.Toward = tw.Degrees
	case tw.Aim != nil && tw.Compass == "" && !tw.IsDegrees && tw.Degrees == 0:
		w.Toward = tw.Aim
	default:
		t.Fatalf("%s: toward %+v is none of a compass name, degrees and an aim point", name, tw)
	}
	if req.Range.Kind == RangeSquares {
		w.Range = &req.Range.Squares
	}
	return w
}

// peerSegments draws n segments for the comparison with fast-voxel-raycast on the Typical
// board: each from a random lattice point inside a free square to one inside another free
// square 5 to 30 squares away (Chebyshev), both at mid height (z = 0.5) of level 0. The
// voxels are the board's full obstacles (fill 1); its low walls are left out on both sides.
// blocked is los.Blocked's answer for each, on those full obstacles alone.
func peerSegments(req *Request, n int) (cells [][2]int, segs [][6]int64, blocked []bool) {
	full := map[grid.Cell]bool{}
	var solids []board.Solid
	for _, o := range req.Obstacles {
		if o.Fill == 1 && o.Z == 0 {
			full[grid.C(o.X, o.Y, 0)] = true
			cells = append(cells, [2]int{o.X, o.Y})
			solids = append(solids, board.Solid{Cell: grid.C(o.X, o.Y, 0), Fill: los.Unit})
		}
	}
	s := board.New(solids)
	r := rand.New(rand.NewPCG(11, 7))
	const size = 60
	inside := func(c int) int64 { return int64(c)*los.Unit + 1 + int64(r.IntN(los.Unit-1)) }
	for len(segs) < n {
		a := grid.C(r.IntN(size), r.IntN(size), 0)
		l := 5 + r.IntN(26)
		b := grid.C(a.X+r.IntN(2*l+1)-l, a.Y+r.IntN(2*l+1)-l, 0)
		if max(num.Abs(b.X-a.X), num.Abs(b.Y-a.Y)) < 5 || b.X < 0 || b.Y < 0 || b.X >= size || b.Y >= size || full[a] || full[b] {
			continue
		}
		p := los.Point{X: inside(a.X), Y: inside(a.Y), Z: los.Unit / 2}
		q := los.Point{X: inside(b.X), Y: inside(b.Y), Z: los.Unit / 2}
		segs = append(segs, [6]int64{p.X, p.Y, p.Z, q.X, q.Y, q.Z})
		blocked = append(blocked, los.Blocked(p, q, s))
	}
	return cells, segs, blocked
}

// TestDumpBenchBoards writes the benchmark boards under $BENCH_DUMP (skipped without it).
func TestDumpBenchBoards(t *testing.T) {
	dir := os.Getenv("BENCH_DUMP")
	if dir == "" {
		t.Skip("BENCH_DUMP is not set: nothing to write")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	write := func(name string, v any) {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	type expect struct {
		Count    int `json:"count"`
		Targets  int `json:"targets"`
		Segments int `json:"segments"`
	}
	expectOf := func(req *Request) expect {
		res := mustEvaluate(t, req)
		e := expect{Count: res.Count, Targets: len(res.Targets)}
		for _, tg := range res.Targets {
			e.Segments += len(tg.Lines)
		}
		return e
	}
	type frame struct {
		Request wireRequest `json:"request"`
		Expect  expect      `json:"expect"`
	}
	var names []string
	for _, c := range benchCases() {
		out := map[string]any{"name": c.name, "bench": c.bench, "request": toWire(t, c.name, c.req), "expect": expectOf(c.req)}
		if c.drag != nil {
			frames := make([]frame, len(c.drag))
			for k, f := range c.drag {
				frames[k] = frame{Request: toWire(t, c.name+" drag "+strconv.Itoa(k), sceneFrame(f)), Expect: expectOf(f)}
			}
			out["drag"] = map[string]any{"bench": c.dragBench, "about": c.dragAbout, "frames": frames}
		}
		write(c.name, out)
		names = append(names, c.name)
	}
	cells, segs, blocked := peerSegments(benchCases()[0].req, 1000)
	write("segments", map[string]any{
		"about":    "fast-voxel-raycast vs los.Blocked: the Typical board's full obstacles as blocked squares, segments in 1/400 lattice units (x, y, z, x, y, z), z at mid height",
		"size":     60,
		"blocked":  cells,
		"segments": segs,
		"verdicts": blocked,
	})
	write("index", map[string]any{"cases": names, "segments": "segments"})
	t.Logf("wrote %d boards and segments.json under %s", len(names), dir)
}

// BenchmarkPeerFOV: the flat Draw Steel bursts with barriers of `make bench`'s field-of-view
// comparison with rot-js, natively (the same requests as the fov-*.json boards).
func BenchmarkPeerFOV(b *testing.B) {
	for _, c := range benchCases() {
		if name, ok := strings.CutPrefix(c.name, "fov-"); ok {
			b.Run(name, func(b *testing.B) { runBench(b, c.req) })
		}
	}
}
