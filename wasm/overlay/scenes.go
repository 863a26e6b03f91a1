package main

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/core/grid"
	"github.com/aoekit/aoekit/wasm/internal/jsapi"
	"github.com/aoekit/aoekit/wasm/wire"
)

// The overlay's scenes (CONTRACT scene) are the engine's, registered by wasm/internal/jsapi
// exactly as aoekit.wasm registers them: its table of *wire.Scene answers every scene call, and
// a draw given a scene's id evaluates against it. What a draw also needs — where the board's
// tokens stand, its thin walls, its obstacles — a *wire.Scene keeps to itself; so each board
// the table accepts is also kept here, as a draw places it, and follows each edit the table
// accepts (then valid: the engine applied it) as CONTRACT scene says the engine applies it.

// A board is a scene's board as a draw places it.
type board struct {
	tokens    []engine.Token // in board order: put on the board, a token replaces the one with its id where it stands; the others join the end
	walls     []engine.Wall
	cells     map[grid.Cell]float64 // the obstacles: fill by cell
	obstacles []engine.Obstacle     // cells sorted by z, y, x; nil when they changed since
}

// boards are the boards of jsapi.Scenes' scenes, by id.
var boards = map[int]*board{}

// sceneID reads the id sceneNew answers, a JSON integer from 1 (digits alone), as strconv.Atoi
// would: not with strconv.Atoi, whose error links strconv's quoting into the module (issue 30).
func sceneID(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 15 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// exportsFollowed is list (jsapi.Exports) with the scene functions that change a board —
// sceneNew, sceneUpdate, sceneDispose — followed by boards: each answers as it did, and a board
// made, edited or disposed is made, edited or forgotten here too.
func exportsFollowed(list []jsapi.Export) []jsapi.Export {
	out := slices.Clone(list)
	for i := range out {
		e := &out[i]
		h := e.Scene
		switch e.Name {
		case "sceneNew":
			e.Scene = func(id int, body, packed []byte) ([]byte, *engine.Error) {
				out, err := h(id, body, packed)
				if err == nil {
					if n, ok := sceneID(out); ok {
						boards[n] = newBoard(body, packed)
					}
				}
				return out, err
			}
		case "sceneUpdate":
			e.Scene = func(id int, body, packed []byte) ([]byte, *engine.Error) {
				out, err := h(id, body, packed)
				if b := boards[id]; err == nil && b != nil {
					b.follow(body, packed)
				}
				return out, err
			}
		case "sceneDispose":
			e.Scene = func(id int, body, packed []byte) ([]byte, *engine.Error) {
				out, err := h(id, body, packed)
				if err == nil {
					delete(boards, id)
				}
				return out, err
			}
		}
	}
	return out
}

// newBoard reads a board the engine has made a scene of, with its packed obstacles.
func newBoard(body, packed []byte) *board {
	b := &board{cells: map[grid.Cell]float64{}}
	in, err := wire.DecodeBoard(body)
	if err != nil {
		return b // not reached: the engine made the scene
	}
	b.tokens, b.walls = in.Tokens, in.Walls
	b.solid(in.Obstacles, packed)
	return b
}

// follow applies an edit the engine has applied, in CONTRACT scene's order: remove, tokens,
// clear, obstacles, walls (bounds are not drawn).
func (b *board) follow(body, packed []byte) {
	e, err := wire.DecodeSceneEdit(body)
	if err != nil {
		return // not reached: the engine applied the edit
	}
	// Ids are looked up in maps, made once an edit: a scan of the list for each token made
	// removing 140 000 ids from 10 000 tokens take 23 s (issue 29, 4).
	if len(e.Remove) > 0 {
		gone := make(map[string]bool, len(e.Remove))
		for _, id := range e.Remove {
			gone[id] = true
		}
		b.tokens = slices.DeleteFunc(slices.Clone(b.tokens), func(t engine.Token) bool { return gone[t.ID] })
	}
	if len(e.Tokens) > 0 {
		b.tokens = slices.Clone(b.tokens)
		at := make(map[string]int, len(b.tokens))
		for i, t := range b.tokens {
			at[t.ID] = i
		}
		for _, t := range e.Tokens {
			if i, ok := at[t.ID]; ok {
				b.tokens[i] = t
			} else {
				at[t.ID] = len(b.tokens)
				b.tokens = append(b.tokens, t)
			}
		}
	}
	for _, c := range e.Clear {
		if _, ok := b.cells[grid.Cell{X: c[0], Y: c[1], Z: c[2]}]; ok {
			delete(b.cells, grid.Cell{X: c[0], Y: c[1], Z: c[2]})
			b.obstacles = nil
		}
	}
	b.solid(e.Obstacles, packed)
	if e.Walls != nil {
		b.walls = e.Walls
	}
}

// solid makes the obstacles' cells (and the packed ones') solid with their fill, as given (as a
// whole request's obstacles are drawn), 0 being a full block as 1 is.
func (b *board) solid(obstacles []engine.Obstacle, packed []byte) {
	if len(packed) > 0 {
		more, err := wire.UnpackObstacles(packed)
		if err == nil {
			obstacles = append(slices.Clip(obstacles), more...)
		}
	}
	for _, o := range obstacles {
		if o.Fill == 0 {
			o.Fill = 1
		}
		b.cells[grid.Cell{X: o.X, Y: o.Y, Z: o.Z}] = o.Fill
		b.obstacles = nil
	}
}

// Obstacles are the board's solid cells, sorted by z, then y, then x.
func (b *board) Obstacles() []engine.Obstacle {
	if b.obstacles == nil {
		out := make([]engine.Obstacle, 0, len(b.cells))
		for c, f := range b.cells {
			out = append(out, engine.Obstacle{X: c.X, Y: c.Y, Z: c.Z, Fill: f})
		}
		slices.SortFunc(out, func(a, c engine.Obstacle) int {
			return cmp.Or(cmp.Compare(a.Z, c.Z), cmp.Compare(a.Y, c.Y), cmp.Compare(a.X, c.X))
		})
		b.obstacles = out
	}
	return b.obstacles
}

// evaluateOn evaluates a scene's request (the body of draw, given scene id) against scene id,
// as sceneEvaluate answers it: the answer, the request (its caster) and the board to draw.
func evaluateOn(id int, body []byte) (*engine.Request, *engine.Result, *board, *engine.Error) {
	s, err := jsapi.Scenes.Get(id)
	if err != nil {
		return nil, nil, nil, err
	}
	res, err := s.EvaluateResult(body)
	if err != nil {
		return nil, nil, nil, err
	}
	req, err := wire.DecodeRequest(body)
	if err != nil {
		return nil, nil, nil, err // not reached: the scene read it
	}
	b := boards[id]
	if b == nil {
		return nil, nil, nil, wire.InternalError("scene " + strconv.Itoa(id) + ": no board to draw") // not reached
	}
	return req, res, b, nil
}

// asError is an engine error as an *engine.Error (bad_request when it is not one): the
// engine's errors are all *engine.Error, never wrapped.
func asError(err error) *engine.Error {
	if e, ok := err.(*engine.Error); ok && e != nil {
		return e
	}
	return &engine.Error{Code: engine.CodeBadRequest, Message: err.Error()}
}
