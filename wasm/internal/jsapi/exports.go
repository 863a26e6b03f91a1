package jsapi

import (
	"strconv"
	"unsafe"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

// A Handler answers one request body with JSON (or, for evaluateCells, packed cells).
type Handler func(body []byte) ([]byte, *engine.Error)

// A SceneHandler answers one request for the scene whose id JavaScript passes, with the bytes
// of an optional Uint8Array of packed obstacles (nil when none).
type SceneHandler func(id int, body, packed []byte) ([]byte, *engine.Error)

// A BoardHandler answers one request body whose board's obstacles may come packed (nil when
// none: wire.UnpackObstacles), after any the body holds.
type BoardHandler func(body, packed []byte) ([]byte, *engine.Error)

// An Export is one function a module offers JavaScript: a Handler of a body, a BoardHandler of
// a body and packed obstacles, or a SceneHandler of a scene's id, a body and packed obstacles.
// (A module's own functions of JavaScript values, the overlay's, are RawExports.)
type Export struct {
	Name   string
	Handle Handler
	Board  BoardHandler
	Scene  SceneHandler
	Packed bool // the answer is bytes for a Uint8Array, not JSON text
}

// Exports lists the engine's functions, the scene functions working on Scenes: what
// aoekit.wasm registers, and what aoekit-overlay.wasm registers besides its own.
var Exports = []Export{
	{Name: "parse", Handle: wire.Parse},
	{Name: "evaluate", Board: evaluate, Packed: true},
	{Name: "evaluateCells", Board: evaluateCells, Packed: true},
	{Name: "move", Handle: wire.Move},
	{Name: "cover", Handle: wire.Cover},
	{Name: "fullAttack", Handle: wire.FullAttack},
	{Name: "version", Handle: func([]byte) ([]byte, *engine.Error) { return wire.Version(), nil }},
	{Name: "sceneNew", Scene: Scenes.create},
	{Name: "sceneUpdate", Scene: Scenes.update},
	{Name: "sceneEvaluate", Scene: Scenes.evaluate, Packed: true},
	{Name: "sceneEvaluateCells", Scene: Scenes.evaluateCells, Packed: true},
	{Name: "sceneDispose", Scene: Scenes.dispose},
}

// Scenes are the scenes JavaScript made (CONTRACT scene), by id: one table a module. A module
// that stops loses them: the loader then refuses the old ids and says why.
var Scenes = &SceneTable{m: map[int]*wire.Scene{}}

// A SceneTable holds scenes by id, from 1 on.
type SceneTable struct {
	m    map[int]*wire.Scene
	last int
}

// create makes a scene from a board and answers its id.
func (t *SceneTable) create(_ int, body, packed []byte) ([]byte, *engine.Error) {
	s, err := wire.NewScene(body, packed)
	if err != nil {
		return nil, err
	}
	t.last++
	t.m[t.last] = s
	return []byte(strconv.Itoa(t.last)), nil
}

// Get is scene id, or the error for an id that names none.
func (t *SceneTable) Get(id int) (*wire.Scene, *engine.Error) {
	if s := t.m[id]; s != nil {
		return s, nil
	}
	return nil, &engine.Error{Code: engine.CodeBadRequest, Message: "scene " + strconv.Itoa(id) + ": no such scene (disposed, or never made)"}
}

// update applies an edit to scene id and answers null.
func (t *SceneTable) update(id int, body, packed []byte) ([]byte, *engine.Error) {
	s, err := t.Get(id)
	if err != nil {
		return nil, err
	}
	if err := s.Update(body, packed); err != nil {
		return nil, err
	}
	return []byte("null"), nil
}

// evaluate answers an evaluate request without a board against scene id, split as the
// package's evaluate answers.
func (t *SceneTable) evaluate(id int, body, _ []byte) ([]byte, *engine.Error) {
	res, err := t.result(id, body)
	if err != nil {
		return nil, err
	}
	return split(res)
}

// evaluateCells is evaluate's cells, packed by packCells.
func (t *SceneTable) evaluateCells(id int, body, _ []byte) ([]byte, *engine.Error) {
	res, err := t.result(id, body)
	if err != nil {
		return nil, err
	}
	return packCells(res.Cells), nil
}

// result evaluates an evaluate request without a board against scene id.
func (t *SceneTable) result(id int, body []byte) (*engine.Result, *engine.Error) {
	s, err := t.Get(id)
	if err != nil {
		return nil, err
	}
	return s.EvaluateResult(body)
}

// dispose forgets scene id and answers null.
func (t *SceneTable) dispose(id int, _, _ []byte) ([]byte, *engine.Error) {
	if _, err := t.Get(id); err != nil {
		return nil, err
	}
	delete(t.m, id)
	return []byte("null"), nil
}

// call runs h on body and returns its answer or its error, never both: an answer of neither is
// an internal error. A panic in h goes up to the export's one recover (binder.bind).
func call(h Handler, body []byte) (out []byte, err *engine.Error) {
	return callScene(func(_ int, body, _ []byte) ([]byte, *engine.Error) { return h(body) }, 0, body, nil)
}

// callScene is call for a scene's handler.
func callScene(h SceneHandler, id int, body, packed []byte) (out []byte, err *engine.Error) {
	out, err = h(id, body, packed)
	switch {
	case err != nil:
		return nil, err
	case out == nil:
		return nil, wire.InternalError("no answer")
	}
	return out, nil
}

// evaluate answers an evaluate request with its result split (split): its errors are those of
// wire.Evaluate for the same body.
func evaluate(body, packed []byte) ([]byte, *engine.Error) {
	res, err := wire.EvaluatePacked(body, packed)
	if err != nil {
		return nil, err
	}
	return split(res)
}

// split is a result as bytes for JavaScript: a little-endian uint32 n, then n bytes of the
// result's JSON with "cells": [] (wire's encoding otherwise, byte for byte), zeros to a
// multiple of 4 bytes, then the cells packed by packCells. The loader parses the JSON and puts
// the cells back in their place: the same object as JSON.parse of the whole JSON gives, for a
// fraction of the work on both sides (a typical area's 1 000 cells are most of its JSON).
func split(res *engine.Result) ([]byte, *engine.Error) {
	cells := res.Cells
	if cells != nil { // a nil list stays JSON's null, and the loader leaves it so
		res.Cells = [][3]int32{}
	}
	js := wire.EncodeResult(res)
	res.Cells = cells
	if js == nil {
		return nil, wire.InternalError("the result has a number JSON cannot carry")
	}
	n := len(js)
	b := make([]byte, 4, 4+n+3+12*len(cells))
	b[0], b[1], b[2], b[3] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
	b = append(b, js...)
	for len(b)%4 != 0 {
		b = append(b, 0)
	}
	return appendCells(b, cells), nil
}

// evaluateCells answers an evaluate request with the cells of its result, packed by packCells.
// Its errors are those of wire.Evaluate for the same body.
func evaluateCells(body, packed []byte) ([]byte, *engine.Error) {
	res, err := wire.EvaluatePacked(body, packed)
	if err != nil {
		return nil, err
	}
	return packCells(res.Cells), nil
}

// littleEndian reports whether int32s are stored little-endian here (always under WebAssembly).
var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// packCells writes cells as consecutive x, y, z little-endian int32s: 12 bytes a cell, the
// memory of an Int32Array on a little-endian host (every WebAssembly host but s390x).
func packCells(cells [][3]int32) []byte {
	return appendCells(make([]byte, 0, 12*len(cells)), cells)
}

// appendCells appends cells to b as packCells packs them.
func appendCells(b []byte, cells [][3]int32) []byte {
	if len(cells) > 0 && littleEndian { // the cells' own bytes are the packed form
		return append(b, unsafe.Slice((*byte)(unsafe.Pointer(&cells[0])), 12*len(cells))...)
	}
	for _, c := range cells {
		for _, v := range c {
			u := uint32(v)
			b = append(b, byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
	}
	return b
}
