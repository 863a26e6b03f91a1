package wire

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestEvaluatePacked_CorpusSameAsJSON: every evaluate request of the identity corpus with
// obstacles gets from EvaluatePacked, its obstacles packed (fills n/400, as the loader packs
// them), the result or the error EvaluateResult gives it whole; and so it does with the first
// half of them left in the JSON and the rest packed after them.
func TestEvaluatePacked_CorpusSameAsJSON(t *testing.T) {
	compared := 0
	for _, e := range identityCorpus(t) {
		var m map[string]json.RawMessage
		if e.Door != "evaluate" || json.Unmarshal(e.Body, &m) != nil || m["obstacles"] == nil {
			continue
		}
		req, derr := DecodeRequest(e.Body)
		if derr != nil || len(req.Obstacles) == 0 {
			continue
		}
		want, werr := EvaluateResult(e.Body)
		for _, keep := range []int{0, len(req.Obstacles) / 2} {
			packed := packObstacles(req.Obstacles[keep:])
			kept, _ := json.Marshal(req.Obstacles[:keep])
			m["obstacles"] = kept
			body, _ := json.Marshal(m)
			got, gerr := EvaluatePacked(body, packed)
			if (gerr == nil) != (werr == nil) || gerr != nil && *gerr != *werr || !reflect.DeepEqual(got, want) {
				t.Errorf("%s, %d obstacles in JSON and %d packed: %+v %v; whole, %+v %v", e.Name, keep, len(req.Obstacles)-keep, got, gerr, want, werr)
			}
			compared++
		}
	}
	t.Logf("%d requests compared", compared)
	if compared < 20 {
		t.Errorf("only %d requests compared", compared)
	}
}
