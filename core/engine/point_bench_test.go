package engine

import (
	"reflect"
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// The two templates of issue 28's drag budget (a scene's frame in ≤ 0.3 ms p95 in Chromium on
// the Typical board), as pointBench places them.
const (
	pointSphere = "60-foot-radius sphere"
	pointLine   = "120-foot line"
)

// pointBench is the Typical board (60 × 60, 40 tokens, 300 obstacles, flat) with 2 000 of its
// scattered thin walls, and a dnd5e template on it: issue 28's drag budget cases, a 60-foot
// sphere from an intersection and a 120-foot line from the caster, aimed at 30°.
func pointBench(template string) *Request {
	req := benchScene(1, 60, 40, 300, grid.Cell{}, grid.Cell{})
	req.Walls = benchWalls(7, 60, 2000)
	req.Rules, req.Template, req.Range = RulesDnD5e, TemplateRef{Text: template}, Range{}
	req.Bounds = &Bounds{Max: [3]int{59, 59, 0}}
	if template == pointSphere {
		req.Point = &Point{X: 30, Y: 30, Z: 0}
	} else {
		req.Toward = Toward{Degrees: 30, IsDegrees: true}
	}
	return req
}

// pointDrag is a drag of pointBench(template)'s area, frame by frame, ending where pointBench
// places it: the sphere's point half a square further east each frame (intersections and
// square centres in turn, the lattice a drag snaps to) over the 20 squares up to (30, 30), 40
// frames; the line's toward 15° further clockwise each frame, a whole turn, 24 frames. Every
// frame's area differs from the last's: what a drag costs at most (a real one stays put for
// several frames). The sphere's frames have no caster: the 2 000 walls shut the caster in a
// pocket of 1 × 2 squares, from which it sees no point more than a square away (SPEC §10.4's
// line of effect to the point), and a caster moved along with the point stands on full
// obstacles at times; the area is the same without it (the caster, in the sphere at (30, 30),
// is then no target). about says it in a line, for make bench's table. make bench's dragged rows
// (web/bench/measure.mjs) evaluate the same frames, read from the dumped boards
// (TestDumpBenchBoards).
func pointDrag(template string) (frames []*Request, about string) {
	if template == pointSphere {
		for k := range 40 {
			req := pointBench(template)
			req.Point, req.Caster = &Point{X: 30 - float64(39-k)/2, Y: 30, Z: 0}, nil
			frames = append(frames, req)
		}
		return frames, "the point ½ square east a frame, (10.5, 30) → (30, 30), 40 frames, no caster"
	}
	for k := range 24 {
		req := pointBench(template)
		req.Toward = Toward{Degrees: float64((30 + 15*(k+1)) % 360), IsDegrees: true}
		frames = append(frames, req)
	}
	return frames, "toward 15° clockwise a frame, 45° → 30°, a whole turn, 24 frames"
}

// sceneFrame is req without its board, as a scene's request.
func sceneFrame(req *Request) *Request {
	bare := *req
	bare.Tokens, bare.Obstacles, bare.Walls, bare.Bounds = nil, nil, nil, nil
	return &bare
}

// BenchmarkPoint: issue 28's cases stateless (evaluate: the board read each call), through a
// scene repeating one frame (scene), and through a scene dragged frame by frame as pointDrag
// drags them (scene-dragged: per frame, every frame's area new). Each reports, as runBench
// does, cpu-ns/op and its answer's cells, targets and cover segments (a drag's: their mean over
// its frames).
func BenchmarkPoint(b *testing.B) {
	for _, tm := range []string{pointSphere, pointLine} {
		req := pointBench(tm)
		b.Run(tm+"/evaluate", func(b *testing.B) { pointLoop(b, []*Request{req}, Evaluate) })
		sc, err := NewScene(&Board{Tokens: req.Tokens, Obstacles: req.Obstacles, Walls: req.Walls, Bounds: req.Bounds})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tm+"/scene", func(b *testing.B) { pointLoop(b, []*Request{sceneFrame(req)}, sc.Evaluate) })
		var frames []*Request
		drag, _ := pointDrag(tm)
		for _, f := range drag {
			frames = append(frames, sceneFrame(f))
		}
		b.Run(tm+"/scene-dragged", func(b *testing.B) { pointLoop(b, frames, sc.Evaluate) })
	}
}

// pointLoop times eval on frames in turn, one per op.
func pointLoop(b *testing.B, frames []*Request, eval func(*Request) (*Result, error)) {
	var cells, targets, lines int
	for _, f := range frames {
		res, err := eval(f)
		if err != nil {
			b.Fatal(err)
		}
		cells, targets = cells+res.Count, targets+len(res.Targets)
		for _, tg := range res.Targets {
			lines += len(tg.Lines)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuTime()
	i := 0
	for b.Loop() {
		if _, err := eval(frames[i%len(frames)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
	n := float64(len(frames))
	b.ReportMetric(float64(targets)/n, "targets")
	b.ReportMetric(float64(lines)/n, "segments")
	b.ReportMetric(float64(cells)/n, "cells")
}

// TestPointDrag holds pointDrag's frames to what make bench needs of them: each one valid, the
// scene's answer Evaluate's, the last frame's point or toward pointBench's own.
func TestPointDrag(t *testing.T) {
	for _, tm := range []string{pointSphere, pointLine} {
		frames, _ := pointDrag(tm)
		if last, own := frames[len(frames)-1], pointBench(tm); !reflect.DeepEqual(last.Point, own.Point) || last.Toward != own.Toward {
			t.Errorf("%s: the drag ends on %+v %+v, not on pointBench's %+v %+v", tm, last.Point, last.Toward, own.Point, own.Toward)
		}
		sc, err := NewScene(&Board{Tokens: frames[0].Tokens, Obstacles: frames[0].Obstacles, Walls: frames[0].Walls, Bounds: frames[0].Bounds})
		if err != nil {
			t.Fatal(err)
		}
		for k, f := range frames {
			want := mustEvaluate(t, f)
			got, err := sc.Evaluate(sceneFrame(f))
			if err != nil {
				t.Fatalf("%s frame %d: the scene refuses it: %v", tm, k, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s frame %d: the scene's answer is not Evaluate's", tm, k)
			}
		}
	}
}
