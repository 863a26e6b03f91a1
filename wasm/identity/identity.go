package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"

	"github.com/aoekit/aoekit/core/engine"
	"github.com/aoekit/aoekit/wasm/wire"
)

//go:embed requests.json
var corpusJSON []byte

// An entry is one request of the corpus: a name, the door ("parse", "evaluate", "move", "cover"
// or "full-attack": the HTTP path under /v1/) and the JSON body sent to it.
type entry struct {
	Name string          `json:"name"`
	Door string          `json:"door"`
	Body json.RawMessage `json:"body"`
}

// An answer is the Go door's answer to an entry: the HTTP status it maps to (wire.Status) and
// the body.
type answer struct {
	Name   string `json:"name"`
	Status int    `json:"status"`
	Body   string `json:"body"`
}

// loadCorpus returns the committed requests.
func loadCorpus() ([]entry, error) {
	var entries []entry
	if err := json.Unmarshal(corpusJSON, &entries); err != nil {
		return nil, fmt.Errorf("requests.json: %w", err)
	}
	seen := map[string]bool{}
	for i, e := range entries {
		switch {
		case e.Name == "" || seen[e.Name]:
			return nil, fmt.Errorf("requests.json: entry %d: missing or repeated name %q", i, e.Name)
		case e.Door != "parse" && e.Door != "evaluate" && e.Door != "move" && e.Door != "cover" && e.Door != "full-attack":
			return nil, fmt.Errorf("requests.json: %s: unknown door %q", e.Name, e.Door)
		case len(e.Body) == 0:
			return nil, fmt.Errorf("requests.json: %s: no body", e.Name)
		}
		if err := jsSafe(e.Body); err != nil {
			return nil, fmt.Errorf("requests.json: %s: %w", e.Name, err)
		}
		seen[e.Name] = true
	}
	return entries, nil
}

// jsSafe checks that every number of a body survives JavaScript (JSON.parse, then
// JSON.stringify), as the browser door's requests do: integers within ±2^53, others written as
// JavaScript writes them back.
func jsSafe(body []byte) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		n, ok := tok.(json.Number)
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(string(n), 64)
		if err != nil || math.Abs(f) > 1<<53 || strconv.FormatFloat(f, 'f', -1, 64) != string(n) && math.Trunc(f) == f {
			return fmt.Errorf("number %s does not survive JavaScript: use an integer within ±2^53 (a seed may be a string)", n)
		}
	}
}

// encode is encoding/json with SetEscapeHTML(false) and no trailing newline.
func encode(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// errorAnswer is the body and status of an error.
func errorAnswer(err error) (int, []byte) {
	var e *engine.Error
	if !errors.As(err, &e) || e == nil {
		e = &engine.Error{Code: engine.CodeBadRequest, Message: err.Error()}
	}
	// "at" as the contract has it: a full attack's step index (Step) even when it is 0.
	type errorBody struct {
		Code    engine.Code `json:"code"`
		Message string      `json:"message"`
		Field   string      `json:"field,omitempty"`
		At      *int        `json:"at,omitempty"`
	}
	b := errorBody{Code: e.Code, Message: e.Message, Field: e.Field}
	if e.At != 0 || e.Step {
		b.At = &e.At
	}
	body, jerr := encode(struct {
		Error errorBody `json:"error"`
	}{b})
	if jerr != nil {
		panic(jerr)
	}
	return wire.Status(e), body
}

// goDoor answers one entry as the Go library does: the engine called on the request, its
// result encoded by encoding/json.
func goDoor(e entry) (a answer) {
	a.Name = e.Name
	defer func() {
		if r := recover(); r != nil {
			a.Status, a.Body = 500, fmt.Sprintf("panic: %v", r)
		}
	}()
	var result any
	var err error
	switch e.Door {
	case "parse":
		text, rules, derr := wire.DecodeParse(e.Body)
		if derr != nil {
			err = derr
			break
		}
		var t engine.Template
		if t, err = engine.ParseRules(text, rules); err == nil {
			result = t
		}
	case "evaluate":
		req, derr := wire.DecodeRequest(e.Body)
		if derr != nil {
			err = derr
			break
		}
		result, err = engine.Evaluate(req)
	case "move":
		req, derr := wire.DecodeMove(e.Body)
		if derr != nil {
			err = derr
			break
		}
		result, err = engine.Move(req)
	case "cover":
		req, derr := wire.DecodeCover(e.Body)
		if derr != nil {
			err = derr
			break
		}
		result, err = engine.Cover(req)
	case "full-attack":
		req, derr := wire.DecodeFullAttack(e.Body)
		if derr != nil {
			err = derr
			break
		}
		result, err = engine.FullAttack(req)
	}
	if err != nil {
		status, body := errorAnswer(err)
		a.Status, a.Body = status, string(body)
		return a
	}
	body, jerr := encode(result)
	if jerr != nil {
		a.Status, a.Body = 500, "encoding/json: "+jerr.Error()
		return a
	}
	a.Status, a.Body = 200, string(body)
	return a
}

// write prints the answers as a JSON array, one answer a line.
func write(w io.Writer, answers []answer) error {
	var b bytes.Buffer
	b.WriteString("[\n")
	for i, a := range answers {
		line, err := encode(a)
		if err != nil {
			return err
		}
		b.Write(line)
		if i < len(answers)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("]\n")
	_, err := w.Write(b.Bytes())
	return err
}

func main() {
	out := flag.String("o", "", "write to this file instead of standard output")
	flag.Parse()
	entries, err := loadCorpus()
	if err != nil {
		fmt.Fprintln(os.Stderr, "identity:", err)
		os.Exit(1)
	}
	answers := make([]answer, len(entries))
	for i, e := range entries {
		answers[i] = goDoor(e)
	}
	w := io.Writer(os.Stdout)
	if *out != "" {
		f, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, "identity:", err)
			os.Exit(1)
		}
		defer f.Close()
		w = f
	}
	if err := write(w, answers); err != nil {
		fmt.Fprintln(os.Stderr, "identity:", err)
		os.Exit(1)
	}
}
