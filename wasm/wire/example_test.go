package wire_test

import (
	"fmt"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

func ExampleDecodeRequest() {
	_, err := wire.DecodeRequest([]byte(`{"template": "Cir3", "tokens": [{"id": "g1", "x": "7"}]}`))
	fmt.Println(string(wire.Error(err)), wire.Status(err))
	_, err = wire.DecodeRequest([]byte(`{"template": "Cir3",, }`))
	fmt.Println(err.Message)
	// Output:
	// {"error":{"code":"bad_request","message":"tokens[0].x: expected an integer, got a string","field":"tokens[0].x"}} 400
	// malformed JSON at byte 20: expected a field name (a string)
}

func ExampleEncodeMoveResult() {
	fmt.Println(string(wire.EncodeMoveResult(&engine.MoveResult{
		Path:      [][3]int32{{6, 5, 0}, {7, 5, 0}},
		End:       engine.Pos{X: 7, Y: 5},
		Collision: &engine.Collision{Kind: engine.CollisionObstacle, With: "obstacle", At: [3]int32{8, 5, 0}, Left: 1},
	})))
	// Output:
	// {"path":[[6,5,0],[7,5,0]],"end":{"x":7,"y":5,"z":0},"collision":{"kind":"obstacle","with":"obstacle","at":[8,5,0],"left":1}}
}
