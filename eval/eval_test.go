package eval

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestPerClass(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []string
		want        []Score
		accuracy    float64
	}{
		{
			// a: 2 of 2 predicted right, 2 of 3 found; b: 1 of 2 both ways;
			// c: 1 of 2 predicted right, its 1 found.
			name:  "a small confusion scores each class on its own",
			truth: []string{"a", "a", "a", "b", "b", "c"},
			pred:  []string{"a", "a", "b", "b", "c", "c"},
			want: []Score{
				{Class: "a", Precision: 1, Recall: 2.0 / 3, F1: 0.8, Support: 3, Predicted: 2, Correct: 2},
				{Class: "b", Precision: 0.5, Recall: 0.5, F1: 0.5, Support: 2, Predicted: 2, Correct: 1},
				{Class: "c", Precision: 0.5, Recall: 1, F1: 2.0 / 3, Support: 1, Predicted: 2, Correct: 1},
			},
			accuracy: 4.0 / 6,
		},
		{
			name:  "a class only predicted or only true scores 0, not NaN",
			truth: []string{"z", "a"},
			pred:  []string{"a", "a"},
			want: []Score{
				{Class: "a", Precision: 0.5, Recall: 1, F1: 2.0 / 3, Support: 1, Predicted: 2, Correct: 1},
				{Class: "z", Support: 1},
			},
			accuracy: 0.5,
		},
		{
			name:  "the empty label is a class like any other",
			truth: []string{"", "a"},
			pred:  []string{"", "a"},
			want: []Score{
				{Class: "", Precision: 1, Recall: 1, F1: 1, Support: 1, Predicted: 1, Correct: 1},
				{Class: "a", Precision: 1, Recall: 1, F1: 1, Support: 1, Predicted: 1, Correct: 1},
			},
			accuracy: 1,
		},
		{name: "no items give no scores and accuracy 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, accuracy := PerClass(tt.truth, tt.pred)
			if !near(accuracy, tt.accuracy) {
				t.Errorf("accuracy = %v, want %v", accuracy, tt.accuracy)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d scores %+v, want %d", len(got), got, len(tt.want))
			}
			for i, g := range got {
				w := tt.want[i]
				if g.Class != w.Class || g.Support != w.Support || g.Predicted != w.Predicted || g.Correct != w.Correct ||
					!near(g.Precision, w.Precision) || !near(g.Recall, w.Recall) || !near(g.F1, w.F1) {
					t.Errorf("score %d = %+v, want %+v", i, g, w)
				}
			}
		})
	}
}

func TestAdjustedRandIndex(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []string
		want        float64
	}{
		{"identical labelings score 1", []string{"a", "a", "b", "c"}, []string{"a", "a", "b", "c"}, 1},
		{"renamed labels still score 1", []string{"a", "a", "b", "c"}, []string{"x", "x", "z", "y"}, 1},
		// Contingency cells (a,a)=2 (b,b)=1 (b,c)=1 (c,c)=2, so index =
		// C(2,2)+C(2,2) = 2. Truth groups 2,2,2: a = 3. Pred groups a=2,
		// b=1, c=3: b = 1+0+3 = 4. C(6,2) = 15, expected = 3·4/15 = 0.8,
		// max = (3+4)/2 = 3.5, ARI = (2−0.8)/(3.5−0.8) = 1.2/2.7 = 4/9.
		{"one moved item scores 4/9, computed by hand", []string{"a", "a", "b", "b", "c", "c"}, []string{"a", "a", "b", "c", "c", "c"}, 4.0 / 9},
		// index 0, a = b = 2, C(4,2) = 6, expected 2/3, max 2:
		// (0−2/3)/(2−2/3) = −1/2.
		{"crossed groups score below chance", []string{"a", "a", "b", "b"}, []string{"x", "y", "x", "y"}, -0.5},
		{"is symmetric in its arguments", []string{"a", "a", "b", "c", "c", "c"}, []string{"a", "a", "b", "b", "c", "c"}, 4.0 / 9},
		{"both one group is defined as 1", []string{"a", "a", "a"}, []string{"x", "x", "x"}, 1},
		{"both all singletons is defined as 1", []string{"a", "b", "c"}, []string{"x", "y", "z"}, 1},
		{"one group against all singletons scores 0", []string{"a", "a", "a"}, []string{"x", "y", "z"}, 0},
		{"a single item is defined as 1", []string{"a"}, []string{"x"}, 1},
		{"no items are defined as 1", nil, nil, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := AdjustedRandIndex(tt.truth, tt.pred); !near(got, tt.want) {
				t.Errorf("AdjustedRandIndex(%v, %v) = %v, want %v", tt.truth, tt.pred, got, tt.want)
			}
		})
	}
}

func TestAdjustedRandIndexOfRandomLabelsIsNearZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var truth, pred []string
	for i := range 5000 {
		truth = append(truth, fmt.Sprint("mode-", i%10))
		pred = append(pred, fmt.Sprint("guess-", rng.IntN(10)))
	}
	if got := AdjustedRandIndex(truth, pred); math.Abs(got) > 0.01 {
		t.Errorf("ARI of random labels against 10 groups = %v, want within 0.01 of 0", got)
	}
}

func TestGroupingAccuracy(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []string
		want        float64
	}{
		{"the same groups under other names are all right", []string{"E1", "E2", "E2"}, []string{"x", "y", "y"}, 1},
		// The paper's example: E2's two messages are not grouped together.
		{"a split group makes all its items wrong", []string{"E1", "E2", "E2"}, []string{"E1", "E4", "E5"}, 1.0 / 3},
		{"a merged group makes all its items wrong", []string{"E1", "E1", "E2", "E3"}, []string{"x", "x", "x", "y"}, 1.0 / 4},
		{"a group split in two is wrong in both parts", []string{"a", "a", "a", "b"}, []string{"x", "x", "y", "z"}, 1.0 / 4},
		{"one predicted group for distinct truths is all wrong", []string{"a", "b", "c"}, []string{"x", "x", "x"}, 0},
		{"no items score 0", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := GroupingAccuracy(tt.truth, tt.pred); !near(got, tt.want) {
				t.Errorf("GroupingAccuracy(%v, %v) = %v, want %v", tt.truth, tt.pred, got, tt.want)
			}
		})
	}
}

func TestModeCountError(t *testing.T) {
	tests := []struct {
		name        string
		truth, pred []string
		want        float64
	}{
		{"as many modes as the truth is no error", []string{"a", "b", "b"}, []string{"x", "x", "y"}, 0},
		{"one mode too many of four is 0.25", []string{"a", "b", "c", "d", "d"}, []string{"v", "w", "x", "y", "z"}, 0.25},
		{"one mode too few of four is 0.25", []string{"a", "b", "c", "d"}, []string{"x", "x", "y", "z"}, 0.25},
		{"one mode for three is 2/3", []string{"a", "b", "c"}, []string{"x", "x", "x"}, 2.0 / 3},
		{"no items are no error", nil, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ModeCountError(tt.truth, tt.pred); !near(got, tt.want) {
				t.Errorf("ModeCountError(%v, %v) = %v, want %v", tt.truth, tt.pred, got, tt.want)
			}
		})
	}
}

func TestMetricsPanicOnUnpairedLabels(t *testing.T) {
	metrics := map[string]func(truth, pred []string){
		"PerClass":          func(t, p []string) { PerClass(t, p) },
		"AdjustedRandIndex": func(t, p []string) { AdjustedRandIndex(t, p) },
		"GroupingAccuracy":  func(t, p []string) { GroupingAccuracy(t, p) },
		"ModeCountError":    func(t, p []string) { ModeCountError(t, p) },
	}
	for name, metric := range metrics {
		t.Run(name+" panics when truth and pred differ in length", func(t *testing.T) {
			defer func() {
				if recover() == nil {
					t.Errorf("%s of 2 true and 1 predicted labels did not panic", name)
				}
			}()
			metric([]string{"a", "b"}, []string{"a"})
		})
	}
}

func TestHalf(t *testing.T) {
	// Golden values: changing them moves records between the halves and
	// leaks the held-out half into development.
	tests := []struct{ id, want string }{
		{"py-perm-workspace", "test"}, // SHA-256 starts 0x33
		{"py-erofs", "dev"},           // 0x2c
		{"perm-cupp-51", "dev"},       // 0xe6
		{"", "test"},                  // 0xe3
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%q is in the %s half", tt.id, tt.want), func(t *testing.T) {
			if got := Half(tt.id); got != tt.want {
				t.Errorf("Half(%q) = %s, want %s", tt.id, got, tt.want)
			}
		})
	}
}

func TestHalfSplitsEvenly(t *testing.T) {
	dev := 0
	for i := range 1000 {
		if Half(fmt.Sprint("failure-", i)) == "dev" {
			dev++
		}
	}
	// 3 standard deviations of a fair split of 1000 are about 47.
	if dev < 450 || dev > 550 {
		t.Errorf("got %d of 1000 ids in dev, want 450 to 550", dev)
	}
}

func TestCriticalRecallIsNoFigureWithoutACriticalFailure(t *testing.T) {
	tests := []struct {
		name      string
		severity  string
		rated     string
		wantLine  string
		wantValue float64
	}{
		{"a set with no critical failure prints no recall", "high", "high", "critical recall n/a", 0},
		{"a set whose critical failure was missed prints 0", "critical", "high", "critical recall 0.000", 0},
		{"a set whose critical failure was found prints 1", "critical", "critical", "critical recall 1.000", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			records := []Record{{ID: "a", Layer: "sandbox", Primitive: "memory", Severity: tt.severity}}
			outcomes := []Outcome{{Layer: "sandbox", Primitive: "memory", Severity: tt.rated}}
			rep := Evaluate("set", records, outcomes)
			var b strings.Builder
			WriteReport(&b, rep, false)
			if !strings.Contains(b.String(), tt.wantLine) {
				t.Errorf("got report %q, want a line with %q", b.String(), tt.wantLine)
			}
			if rep.CriticalRecall != tt.wantValue {
				t.Errorf("got CriticalRecall %v, want %v", rep.CriticalRecall, tt.wantValue)
			}
		})
	}
}
