package state

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestARunsRowsAndFailuresAreFoundBySeeks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	st, err := Open(context.Background(), path, false)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	db := st.reader
	for _, q := range []struct{ query, want string }{
		{runRowsQuery, "SEARCH row_chunks USING PRIMARY KEY (source_id=? AND run_id=?)"},
		{runFailuresQuery, "SEARCH failure_chunks USING PRIMARY KEY (source_id=? AND run_id=?)"},
	} {
		rows, err := db.Query(`EXPLAIN QUERY PLAN `+q.query, 1, "r1")
		if err != nil {
			t.Fatal(err)
		}
		var plan []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			plan = append(plan, detail)
		}
		rows.Close()
		if got := strings.Join(plan, "; "); got != q.want {
			t.Errorf("%s: got plan %q, want %q", q.query, got, q.want)
		}
	}
}
