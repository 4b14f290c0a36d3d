package triage

import (
	"math"
	"slices"
)

// Guessing by logistic regression. Naive Bayes (bayes.go) takes each word
// of a message as independent evidence, so the many words one tool prints
// together ("connect", "proxy", "tunnel", "establish") count several times
// over, and a class whose tool is wordy wins messages it should not. A
// multinomial logistic regression (Jurafsky and Martin, "Speech and
// Language Processing", ch. 5) learns each word's weight beside the
// others, so words that always come together share one vote. Scored with
// ten folds of the labelled sets (each tenth by models trained on the
// other nine tenths), it guessed the records no rule decides right 0.716
// of the time against naive Bayes's 0.676.

// Training of the regression: stochastic gradient descent with AdaGrad
// steps (Duchi, Hazan and Singer, JMLR 2011) over the examples in a fixed
// order (trainingOrder), for few epochs from zero weights, which keeps the
// weights small:
// on the folds, 3 epochs at a step of 0.05 guessed best (5 epochs 0.708,
// 10 epochs 0.701, a step of 0.3 0.678).
//
// A few epochs from zero stop the descent early, and where it stops
// depends on the order of the examples. So the regression is trained over
// linearOrders orders and their weights averaged, which averages their
// scores, a score being linear in the weights: an ensemble over orders,
// like bagging (Breiman, 1996) but with every example kept. On ten folds
// it raised primitive accuracy from 0.8603 to 0.8615, and 8 orders did no
// better (docs/classification.md).
const (
	linearEpochs = 3
	linearStep   = 0.05
	// linearL2 pulls the weights of the words an example holds towards
	// zero; its size barely mattered on the folds (1e-5 to 1e-2).
	linearL2 = 1e-2
	// linearOrders is how many orders of the examples the regression is
	// trained over, its weights averaged.
	linearOrders = 4
)

// linearExample is one training example of the regression: its class's
// index and its words' indexes.
type linearExample struct {
	class int
	words []int
}

// trainLinear learns Weights and Bias for m's classes from docs, reading
// only the words m.Words kept (seen in at least minWordDocs failures).
func (m *WordModel) trainLinear(docs func(yield func(class string, features []string))) {
	index := map[string]int{}
	for i, c := range m.Classes {
		index[c] = i
	}
	vocab := map[string]int{}
	var words []string
	var examples []linearExample
	docs(func(class string, features []string) {
		c, ok := index[class]
		if !ok {
			return
		}
		ex := linearExample{class: c}
		for _, w := range features {
			if _, kept := m.Words[w]; !kept {
				continue
			}
			j, seen := vocab[w]
			if !seen {
				j = len(words)
				vocab[w] = j
				words = append(words, w)
			}
			ex.words = append(ex.words, j)
		}
		examples = append(examples, ex)
	})
	k := len(m.Classes)
	weights := make([]float64, len(words)*k)
	bias := make([]float64, k)
	for seed := range uint64(linearOrders) {
		w, b := fitLinear(examples, len(words), k, trainingOrder(len(examples), seed))
		for i := range w {
			weights[i] += w[i] / linearOrders
		}
		for c := range b {
			bias[c] += b[c] / linearOrders
		}
	}
	m.Bias = roundAll(bias)
	m.Weights = make(map[string][]float64, len(words))
	for j, w := range words {
		m.Weights[w] = roundAll(weights[j*k : (j+1)*k])
	}
}

// fitLinear runs the descent over examples in order for linearEpochs and
// returns the weights (word j's for class c at j*k+c) and the biases of
// k classes.
func fitLinear(examples []linearExample, nWords, k int, order []int) (weights, bias []float64) {
	weights = make([]float64, nWords*k)
	squares := make([]float64, nWords*k)
	bias = make([]float64, k)
	biasSquares := make([]float64, k)
	p := make([]float64, k)
	for range linearEpochs {
		for _, i := range order {
			ex := examples[i]
			for c := range p {
				p[c] = bias[c]
				for _, j := range ex.words {
					p[c] += weights[j*k+c]
				}
			}
			softmax(p)
			for c := range p {
				g := p[c]
				if c == ex.class {
					g--
				}
				// float64() keeps each product rounded on its own, so no
				// platform fuses it into a multiply-add and the trained
				// model is the same everywhere.
				biasSquares[c] += float64(g * g)
				bias[c] -= linearStep * g / math.Sqrt(biasSquares[c]+1e-8)
				for _, j := range ex.words {
					at := j*k + c
					gw := g + float64(linearL2*weights[at])
					squares[at] += float64(gw * gw)
					weights[at] -= linearStep * gw / math.Sqrt(squares[at]+1e-8)
				}
			}
		}
	}
	return weights, bias
}

// trainingOrder returns 0 to n−1 shuffled by a fixed hash (SplitMix64's
// finaliser) of each index and seed: examples of one set, which come
// together, are spread over the epoch, each seed gives another order, and
// the order is the same on every platform and Go release.
func trainingOrder(n int, seed uint64) []int {
	order := make([]int, n)
	keys := make([]uint64, n)
	for i := range order {
		order[i] = i
		z := uint64(i) + 0x9e3779b97f4a7c15*(seed+1)
		z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
		z = (z ^ z>>27) * 0x94d049bb133111eb
		keys[i] = z ^ z>>31
	}
	slices.SortFunc(order, func(a, b int) int {
		switch {
		case keys[a] < keys[b]:
			return -1
		case keys[a] > keys[b]:
			return 1
		}
		return 0
	})
	return order
}

// roundAll returns xs rounded to thousandths, which keeps the embedded
// model small and changes no guess on the folds.
func roundAll(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, x := range xs {
		out[i] = math.Round(x*1000) / 1000
	}
	return out
}

// softmax turns scores into probabilities in place.
func softmax(p []float64) {
	top := slices.Max(p)
	sum := 0.0
	for c := range p {
		p[c] = math.Exp(p[c] - top)
		sum += p[c]
	}
	for c := range p {
		p[c] /= sum
	}
}

// guessLinear is Guess for a model with Weights: the class of the highest
// score, its margin over the next in natural log (the log of their odds),
// and the words whose weights favour it over the next most.
func (m *WordModel) guessLinear(features []string) (class string, margin float64, words []string) {
	if len(m.Bias) != len(m.Classes) {
		return "", 0, nil
	}
	scores := slices.Clone(m.Bias)
	var known [][]float64
	var knownWords []string
	for _, w := range features {
		ws, ok := m.Weights[w]
		if !ok || len(ws) != len(scores) {
			continue
		}
		known, knownWords = append(known, ws), append(knownWords, w)
		for c := range scores {
			scores[c] += ws[c]
		}
	}
	best, second := topTwo(scores)
	words = leaningWords(knownWords, func(i int) float64 { return known[i][best] - known[i][second] })
	return m.Classes[best], scores[best] - scores[second], words
}

// topTwo returns the indexes of the highest and the next highest of
// scores, which holds at least two; ties go to the lower index.
func topTwo(scores []float64) (best, second int) {
	best, second = 0, 1
	if scores[second] > scores[best] {
		best, second = second, best
	}
	for c := 2; c < len(scores); c++ {
		switch {
		case scores[c] > scores[best]:
			best, second = c, best
		case scores[c] > scores[second]:
			second = c
		}
	}
	return best, second
}
