package wire

import (
	"github.com/aoekit/aoekit/core/engine"
)

// A Scene is an engine.Scene read from JSON (CONTRACT scene): a door that keeps boards between
// calls (the browser module) holds one per board. Its methods answer as Evaluate does and,
// like the package's functions, never panic.
type Scene struct{ s *engine.Scene }

// MaxPacked bounds the bytes of packed obstacles one call hands over: MaxObstacles of them.
const MaxPacked = 16 * engine.MaxObstacles

// DecodeBoard reads a board (CONTRACT scene), as DecodeRequest reads a request.
func DecodeBoard(body []byte) (*engine.Board, *engine.Error) {
	b := new(engine.Board)
	if err := decode(body, b); err != nil {
		return nil, err
	}
	return b, nil
}

// DecodeSceneEdit reads a scene edit (CONTRACT scene).
func DecodeSceneEdit(body []byte) (*engine.SceneEdit, *engine.Error) {
	e := new(engine.SceneEdit)
	if err := decode(body, e); err != nil {
		return nil, err
	}
	return e, nil
}

// UnpackObstacles reads obstacles packed as consecutive little-endian int32 quads x, y, z,
// fill, the fill in 1/400 of a cell (1 … 400; 400 is a full block): the memory of an
// Int32Array. They join the JSON's obstacles after them; an error names them "obstacles
// (packed)[i]".
func UnpackObstacles(packed []byte) ([]engine.Obstacle, *engine.Error) {
	if len(packed) > MaxPacked {
		return nil, &engine.Error{Code: engine.CodeTooLarge, Message: "obstacles (packed): " + itoa(len(packed)/16) +
			" obstacles, past the limit of " + itoa(engine.MaxObstacles), Field: "obstacles"}
	}
	if len(packed)%16 != 0 {
		return nil, &engine.Error{Code: engine.CodeBadRequest, Message: "obstacles (packed): " + itoa(len(packed)) +
			" bytes, not a whole number of x, y, z, fill quads of int32s (16 bytes each)", Field: "obstacles"}
	}
	out := make([]engine.Obstacle, len(packed)/16)
	for i := range out {
		var v [4]int
		for k := range v {
			b := packed[16*i+4*k:]
			v[k] = int(int32(uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24))
		}
		if max(v[0], -v[0], v[1], -v[1], v[2], -v[2]) > engine.MaxCoord { // named here, not as the joined list's obstacles[i]
			return nil, &engine.Error{Code: engine.CodeTooLarge, Message: "obstacles (packed)[" + itoa(i) +
				"]: coordinates past ±" + itoa(engine.MaxCoord), Field: "obstacles"}
		}
		if v[3] < 1 || v[3] > 400 {
			return nil, &engine.Error{Code: engine.CodeBadRequest, Message: "obstacles (packed)[" + itoa(i) +
				"]: fill " + itoa(v[3]) + " is not 1 … 400 (in 1/400 of a cell; 400 is a full block)", Field: "obstacles"}
		}
		out[i] = engine.Obstacle{X: v[0], Y: v[1], Z: v[2], Fill: float64(v[3]) / 400}
	}
	return out, nil
}

// NewScene reads a board, with packed obstacles after its JSON ones (nil for none), and makes
// its scene.
func NewScene(body, packed []byte) (s *Scene, err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			s, err = nil, Recovered(r)
		}
	}()
	b := new(engine.Board)
	if err := read(body, b); err != nil {
		return nil, err
	}
	if b.Obstacles, err = withPacked(b.Obstacles, packed); err != nil {
		return nil, err
	}
	es, nerr := engine.NewScene(b)
	if nerr != nil {
		return nil, asError(nerr)
	}
	return &Scene{es}, nil
}

// withPacked is obstacles followed by the packed ones.
func withPacked(obstacles []engine.Obstacle, packed []byte) ([]engine.Obstacle, *engine.Error) {
	if len(packed) == 0 {
		return obstacles, nil
	}
	more, err := UnpackObstacles(packed)
	if err != nil {
		return nil, err
	}
	if len(obstacles)+len(more) > engine.MaxObstacles {
		return nil, &engine.Error{Code: engine.CodeTooLarge, Message: "obstacles: " + itoa(len(obstacles)+len(more)) +
			" obstacles, past the limit of " + itoa(engine.MaxObstacles), Field: "obstacles"}
	}
	return append(obstacles, more...), nil
}

// Update reads a scene edit, with packed obstacles after its JSON ones (nil for none), and
// applies it: all of it, or with an error none.
func (s *Scene) Update(body, packed []byte) (err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			err = Recovered(r)
		}
	}()
	e := new(engine.SceneEdit)
	if err := read(body, e); err != nil {
		return err
	}
	if e.Obstacles, err = withPacked(e.Obstacles, packed); err != nil {
		return err
	}
	if uerr := s.s.Update(e); uerr != nil {
		return asError(uerr)
	}
	return nil
}

// EvaluateResult reads an evaluate request without a board and evaluates it against the
// scene, as the package's EvaluateResult does.
func (s *Scene) EvaluateResult(body []byte) (res *engine.Result, err *engine.Error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, Recovered(r)
		}
	}()
	req := new(engine.Request)
	if err := read(body, req); err != nil {
		return nil, err
	}
	res, eerr := s.s.Evaluate(req)
	if eerr != nil {
		return nil, asError(eerr)
	}
	if res == nil {
		return nil, InternalError("evaluate returned no result")
	}
	return res, nil
}

// Evaluate answers an evaluate request without a board against the scene with the result's
// JSON: the bytes Evaluate gives for the same request with the scene's board in it.
func (s *Scene) Evaluate(body []byte) ([]byte, *engine.Error) {
	res, err := s.EvaluateResult(body)
	if err != nil {
		return nil, err
	}
	return answer(res)
}
