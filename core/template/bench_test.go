package template

import (
	"testing"

	"github.com/aoekit/aoekit/core/grid"
)

// benchShape visits every cell of s at p into a preallocated slice.
func benchShape(b *testing.B, s Shape, p Placement) {
	n := s.Count(p)
	buf := make([]grid.Cell, 0, n)
	visit := func(c grid.Cell) { buf = append(buf, c) }
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		s.Cells(p, visit)
	}
	if len(buf) != n {
		b.Fatalf("%v: %d cells visited, Count() = %d", s, len(buf), n)
	}
	b.ReportMetric(float64(n), "cells/op")
}

var benchOrigin = grid.Cell{X: 500, Y: 500, Z: 0}

func BenchmarkCir60h1(b *testing.B) {
	benchShape(b, Circle{Radius: 60, Height: 1}, Placement{Origin: benchOrigin})
}
func BenchmarkCon100N(b *testing.B) {
	benchShape(b, Cone{Length: 100, Dir: grid.N, Height: 1}, Placement{Origin: benchOrigin})
}
func BenchmarkCon100NE(b *testing.B) {
	benchShape(b, Cone{Length: 100, Dir: grid.NE, Height: 1}, Placement{Origin: benchOrigin})
}
func BenchmarkLin200Ew5(b *testing.B) {
	benchShape(b, Line{Length: 200, Dir: grid.E, Width: 5, Height: 1}, Placement{Origin: benchOrigin})
}
func BenchmarkLin200NWw5(b *testing.B) {
	benchShape(b, Line{Length: 200, Dir: grid.NW, Width: 5, Height: 1}, Placement{Origin: benchOrigin})
}
func BenchmarkRec100x100h1(b *testing.B) {
	benchShape(b, Rect{Width: 100, Length: 100, Height: 1}, Placement{Origin: benchOrigin, Orientation: grid.E})
}
func BenchmarkAura20(b *testing.B) {
	benchShape(b, Aura{Radius: 20}, Placement{Caster: grid.Space{Anchor: benchOrigin, Size: 2, Height: 2}})
}
func BenchmarkCube10(b *testing.B) {
	benchShape(b, Cube{Side: 10}, Placement{Origin: benchOrigin})
}
func BenchmarkDSLine200x3(b *testing.B) {
	benchShape(b, DSLine{Length: 200, Width: 3}, Placement{Origin: benchOrigin, Aim: benchOrigin.Add(grid.Cell{X: 37, Y: -101})})
}
func BenchmarkDSLine200x3Path(b *testing.B) {
	path := DSLine{Length: 200}.Squares(benchOrigin, benchOrigin.Add(grid.Cell{X: 37, Y: -101}))
	benchShape(b, DSLine{Length: 200, Width: 3}, Placement{Path: path})
}
func BenchmarkCircle50x100(b *testing.B) {
	benchShape(b, Circle50{Size: 100}, Placement{Origin: benchOrigin})
}

func BenchmarkCubeOriginSquare100(b *testing.B) {
	c := Cube{Side: 100}
	caster := grid.Space{Anchor: benchOrigin.Add(grid.Cell{X: 150, Y: 150, Z: 150}), Size: 1, Height: 1}
	b.ReportAllocs()
	for b.Loop() {
		c.OriginSquare(benchOrigin, caster)
	}
}

func BenchmarkStraight1000(b *testing.B) {
	path := DSLine{Length: 1000}.Squares(benchOrigin, benchOrigin.Add(grid.Cell{X: 7, Y: 3, Z: 2}))
	b.ReportAllocs()
	for b.Loop() {
		if err := Straight(path); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkFaceConnected1000(b *testing.B) {
	var wall []grid.Cell
	for i := range 1000 {
		wall = append(wall, benchOrigin.Add(grid.Cell{X: i / 10, Z: i % 10}))
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := FaceConnected(wall); err != nil {
			b.Fatal(err)
		}
	}
}
