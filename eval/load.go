package eval

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Record is one labelled failure, a line of a JSONL file such as
// testdata/corpus/*.jsonl: what the tool reported, what the harness said,
// and the true layer, primitive, severity, cause and failure mode.
type Record struct {
	ID               string `json:"id"`
	Source           string `json:"source"`
	Target           string `json:"target"`
	Domain           string `json:"domain"`
	Status           string `json:"status"`
	ExitCode         *int64 `json:"exit_code"`
	Error            string `json:"error"`
	Log              string `json:"log"`
	HarnessLayer     string `json:"harness_layer"`
	HarnessPrimitive string `json:"harness_primitive"`
	Layer            string `json:"layer"`
	Primitive        string `json:"primitive"`
	Severity         string `json:"severity"`
	Cause            string `json:"cause"`
	Mode             string `json:"mode"`
	VariantOf        string `json:"variant_of"` // the id of the record this one restates
}

// LogLine is one line of a labelled log: its content and the event, the
// true group, it belongs to.
type LogLine struct {
	Content string `json:"content"`
	Event   string `json:"event"`
}

// maxLine is the longest JSONL line the loaders accept, in bytes.
const maxLine = 1 << 20

// LoadRecords reads the records of each JSONL file in order. Blank lines
// are skipped; an error names the file and line.
func LoadRecords(paths ...string) ([]Record, error) {
	var records []Record
	for _, path := range paths {
		rs, err := readJSONL[Record](path)
		if err != nil {
			return nil, err
		}
		records = append(records, rs...)
	}
	return records, nil
}

// LoadLogs reads every *.jsonl file of dir, keyed by its base name without
// the extension, so logs/hdfs.jsonl is "hdfs". An error names the file and
// line.
func LoadLogs(dir string) (map[string][]LogLine, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	logs := map[string][]LogLine{}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".jsonl")
		if !ok || e.IsDir() {
			continue
		}
		lines, err := readJSONL[LogLine](filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		logs[name] = lines
	}
	return logs, nil
}

func readJSONL[T any](path string) ([]T, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	// A line of maxLine bytes fits with its "\r\n"; a longer one fails the
	// length check or the scanner.
	sc.Buffer(make([]byte, 64<<10), maxLine+2)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) > maxLine {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", path, line, maxLine)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var v T
		if err := json.Unmarshal(b, &v); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, fmt.Errorf("%s:%d: line longer than %d bytes", path, line+1, maxLine)
		}
		return nil, fmt.Errorf("%s:%d: %w", path, line+1, err)
	}
	return out, nil
}
