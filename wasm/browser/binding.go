package main

import (
	"strconv"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// A handler answers one request body with JSON (or, for evaluateCells, packed cells).
type handler func(body []byte) ([]byte, *engine.Error)

// A sceneHandler answers one request for the scene whose id JavaScript passes, with the bytes
// of an optional Uint8Array of packed obstacles (nil when none).
type sceneHandler func(id int, body, packed []byte) ([]byte, *engine.Error)

// An export is one function the module offers JavaScript: a handler of a body, or of a scene's
// id, a body and packed obstacles.
type export struct {
	name   string
	handle handler
	scene  sceneHandler
	packed bool // the answer is bytes for a Uint8Array, not JSON text
}

// exports lists what the module registers.
var exports = []export{
	{name: "parse", handle: wire.Parse},
	{name: "evaluate", handle: wire.Evaluate},
	{name: "evaluateCells", handle: evaluateCells, packed: true},
	{name: "move", handle: wire.Move},
	{name: "cover", handle: wire.Cover},
	{name: "fullAttack", handle: wire.FullAttack},
	{name: "version", handle: func([]byte) ([]byte, *engine.Error) { return wire.Version(), nil }},
	{name: "sceneNew", scene: scenes.create},
	{name: "sceneUpdate", scene: scenes.update},
	{name: "sceneEvaluate", scene: scenes.evaluate},
	{name: "sceneEvaluateCells", scene: scenes.evaluateCells, packed: true},
	{name: "sceneDispose", scene: scenes.dispose},
}

// scenes are the scenes JavaScript made (CONTRACT scene), by id. A module that stops loses
// them: the loader then refuses the old ids and says why.
var scenes = &sceneTable{m: map[int]*wire.Scene{}}

// A sceneTable holds scenes by id, from 1 on.
type sceneTable struct {
	m    map[int]*wire.Scene
	last int
}

// create makes a scene from a board and answers its id.
func (t *sceneTable) create(_ int, body, packed []byte) ([]byte, *engine.Error) {
	s, err := wire.NewScene(body, packed)
	if err != nil {
		return nil, err
	}
	t.last++
	t.m[t.last] = s
	return []byte(strconv.Itoa(t.last)), nil
}

// get is the scene id, or the error for an id that names none.
func (t *sceneTable) get(id int) (*wire.Scene, *engine.Error) {
	if s := t.m[id]; s != nil {
		return s, nil
	}
	return nil, &engine.Error{Code: engine.CodeBadRequest, Message: "scene " + strconv.Itoa(id) + ": no such scene (disposed, or never made)"}
}

// update applies an edit to scene id and answers null.
func (t *sceneTable) update(id int, body, packed []byte) ([]byte, *engine.Error) {
	s, err := t.get(id)
	if err != nil {
		return nil, err
	}
	if err := s.Update(body, packed); err != nil {
		return nil, err
	}
	return []byte("null"), nil
}

// evaluate answers an evaluate request without a board against scene id.
func (t *sceneTable) evaluate(id int, body, _ []byte) ([]byte, *engine.Error) {
	s, err := t.get(id)
	if err != nil {
		return nil, err
	}
	return s.Evaluate(body)
}

// evaluateCells is evaluate's cells, packed by packCells.
func (t *sceneTable) evaluateCells(id int, body, _ []byte) ([]byte, *engine.Error) {
	s, err := t.get(id)
	if err != nil {
		return nil, err
	}
	res, err := s.EvaluateResult(body)
	if err != nil {
		return nil, err
	}
	return packCells(res.Cells), nil
}

// dispose forgets scene id and answers null.
func (t *sceneTable) dispose(id int, _, _ []byte) ([]byte, *engine.Error) {
	if _, err := t.get(id); err != nil {
		return nil, err
	}
	delete(t.m, id)
	return []byte("null"), nil
}

// call runs h on body and returns its answer or its error, never both: an answer of neither is
// an internal error. A panic in h goes up to the export's one recover (binder.bind).
func call(h handler, body []byte) (out []byte, err *engine.Error) {
	return callScene(func(_ int, body, _ []byte) ([]byte, *engine.Error) { return h(body) }, 0, body, nil)
}

// callScene is call for a scene's handler.
func callScene(h sceneHandler, id int, body, packed []byte) (out []byte, err *engine.Error) {
	out, err = h(id, body, packed)
	switch {
	case err != nil:
		return nil, err
	case out == nil:
		return nil, wire.InternalError("no answer")
	}
	return out, nil
}

// evaluateCells answers an evaluate request with the cells of its result, packed by packCells.
// Its errors are those of wire.Evaluate for the same body.
func evaluateCells(body []byte) ([]byte, *engine.Error) {
	res, err := wire.EvaluateResult(body)
	if err != nil {
		return nil, err
	}
	return packCells(res.Cells), nil
}

// packCells writes cells as consecutive x, y, z little-endian int32s: 12 bytes a cell, the
// memory of an Int32Array on a little-endian host (every WebAssembly host but s390x).
func packCells(cells [][3]int32) []byte {
	b := make([]byte, 0, 12*len(cells))
	for _, c := range cells {
		for _, v := range c {
			u := uint32(v)
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
	}
	return b
}
