package los

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	coreboard "github.com/aoekit/aoekit/core/board"
	"github.com/aoekit/aoekit/core/grid"
)

// BenchmarkSegments times Blocked on the segments `make bench` compares with the JavaScript
// peer fast-voxel-raycast: the engine's Typical board (60 × 60), its full obstacles as
// blocked squares, 1 000 segments between random lattice points of free squares 5 to 30
// squares apart at mid height. They are written by core/engine's TestDumpBenchBoards to
// $BENCH_BOARDS/segments.json (build/bench/boards by default); the benchmark is skipped
// without them. One op is one segment, as in BenchmarkTypical.
func BenchmarkSegments(b *testing.B) {
	dir := os.Getenv("BENCH_BOARDS")
	if dir == "" {
		dir = filepath.Join("..", "..", "build", "bench", "boards")
	}
	data, err := os.ReadFile(filepath.Join(dir, "segments.json"))
	if err != nil {
		b.Skipf("no segments to time (%v): make bench writes them, or BENCH_DUMP=dir go test -run TestDumpBenchBoards ./core/engine", err)
	}
	var in struct {
		Blocked  [][2]int   `json:"blocked"`
		Segments [][6]int64 `json:"segments"`
		Verdicts []bool     `json:"verdicts"`
	}
	if err := json.Unmarshal(data, &in); err != nil {
		b.Fatal(err)
	}
	if len(in.Segments) == 0 || len(in.Verdicts) != len(in.Segments) {
		b.Fatalf("segments.json: %d segments, %d verdicts", len(in.Segments), len(in.Verdicts))
	}
	var cells []coreboard.Solid
	for _, c := range in.Blocked {
		cells = append(cells, coreboard.Solid{Cell: grid.C(c[0], c[1], 0), Fill: Unit})
	}
	d := coreboard.New(cells)
	segs := make([][2]Point, len(in.Segments))
	for i, s := range in.Segments {
		segs[i] = [2]Point{{s[0], s[1], s[2]}, {s[3], s[4], s[5]}}
		if got := Blocked(segs[i][0], segs[i][1], d); got != in.Verdicts[i] {
			b.Fatalf("segment %d: Blocked = %v, the dump says %v", i, got, in.Verdicts[i])
		}
	}
	benchSegments(b, d, segs)
}
