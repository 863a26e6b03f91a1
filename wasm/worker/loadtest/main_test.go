package main

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aoekit/aoekit/wasm/api"
)

func TestRun(t *testing.T) {
	srv := httptest.NewServer(api.New())
	defer srv.Close()
	reqs, err := requests("../../identity/requests.json", "", "", "")
	if err != nil {
		t.Fatal(err)
	}
	r := run(context.Background(), srv.Client(), srv.URL, reqs, 300, 8, false, 0)
	if r.sent != 300 || r.errors != 0 || r.statuses[200] == 0 || r.statuses[400] == 0 || r.statuses[422] == 0 {
		t.Errorf("corpus run: %+v", r)
	}
	one, _ := requests("", "GET", "/v1/version", "")
	if r := run(context.Background(), srv.Client(), srv.URL, one, 50, 4, true, 200); r.errors != 0 || r.statuses[200] != 50 {
		t.Errorf("version run: %+v", r)
	}
	if r := run(context.Background(), srv.Client(), srv.URL, one, 10, 2, true, 201); r.errors != 10 || !strings.Contains(r.firstErr, "status 200") {
		t.Errorf("unexpected status is an error: %+v", r)
	}
	var b strings.Builder
	r.print(&b, srv.URL, 8)
	if !strings.Contains(b.String(), "requests/s") || !strings.Contains(b.String(), "p99") {
		t.Errorf("report: %s", b.String())
	}
}
