/* The solver's search, in C: the same depth-first search as Search and solve() in solver.py,
 * move for move and in the same order, about fifty times faster.
 *
 * solver.py prepares the rules as tables (which cards sit on which, where each card goes on
 * its foundation, the reserve, the die's rolls) and the starting position; this file only
 * searches. It is an optional speed-up: without a C compiler the package installs without it
 * and solver.py searches in Python.
 *
 * A position: foundation counts by suit, reserve length, four columns, the talon (stock and
 * waste as one sequence in the order drawing turns them, the first `w` of them in the waste),
 * and the passes made. Positions already searched are remembered by a 64-bit hash of their key
 * (columns sorted, talon positions that drawing makes equal merged); a hash collision could only
 * hide a win, never invent one, and every winning line is replayed by the caller.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

#define DECK 52
#define COLUMNS 4
#define MAX_PASSES 64
#define MAX_MOVES 512

/* Pile codes in steps: columns 0..3, reserve 4, waste 5, foundations 6..9. */
#define PILE_RESERVE 4
#define PILE_WASTE 5
#define PILE_FOUNDATION 6

typedef struct {
    uint8_t found[4];
    uint8_t reserve;
    uint8_t len[COLUMNS];
    uint8_t col[COLUMNS][DECK];
    uint8_t n, w, passes;
    uint8_t talon[DECK];
} State;

enum { TO_FOUNDATION, RESERVE_TO_COLUMN, COLUMN_TO_COLUMN, WASTE_TO_COLUMN };

typedef struct {
    uint8_t kind, src, dst, count; /* src: column, or PILE_RESERVE / PILE_WASTE */
    uint8_t draws, index, passes;  /* a waste move: draws first, then the card is talon[index] */
} Move;

typedef struct {
    uint8_t draws, src, dst, count;
} Step;

typedef struct {
    int suit[DECK], rel[DECK], helpers[4];
    uint64_t sits[DECK]; /* bit c set: card c may be built on this card */
    int wanted[4][13];
    int reserve[DECK], reserve_len;
    int any_group, fill, redeals, draw, reference, prune, capped;
    int rolls[MAX_PASSES + 1], has_rolls;
    /* scratch for the talon walk: a stamp per (passes, waste length) */
    uint32_t stamp;
    uint32_t seen[MAX_PASSES + 1][DECK + 1];
} Rules;

typedef struct {
    uint8_t draws, card, index, passes;
} TalonCard;

/* --- the table of positions seen ------------------------------------------------------- */

typedef struct {
    uint64_t *slots;
    size_t mask, used;
} Seen;

/* A zeroed table of `size` slots. Large tables ask for huge pages: the lookups land at random,
 * and with 4 KB pages most of them would also miss the TLB. */
static uint64_t *new_slots(size_t size) {
    size_t bytes = size * sizeof(uint64_t);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes >= (2u << 20)) {
        void *slots = NULL;
        if (posix_memalign(&slots, 2u << 20, bytes)) return NULL;
        madvise(slots, bytes, MADV_HUGEPAGE);
        memset(slots, 0, bytes);
        return slots;
    }
#endif
    return calloc(size, sizeof(uint64_t));
}

static int seen_init(Seen *seen) {
    seen->mask = (1u << 16) - 1;
    seen->used = 0;
    seen->slots = new_slots(seen->mask + 1);
    return seen->slots != NULL;
}

static int seen_grow(Seen *seen) {
    size_t size = (seen->mask + 1) * 2;
    uint64_t *slots = new_slots(size);
    if (!slots) return 0;
    for (size_t i = 0; i <= seen->mask; i++) {
        uint64_t h = seen->slots[i];
        if (!h) continue;
        size_t j = h & (size - 1);
        while (slots[j]) j = (j + 1) & (size - 1);
        slots[j] = h;
    }
    free(seen->slots);
    seen->slots = slots;
    seen->mask = size - 1;
    return 1;
}

/* Adds the hash; returns 1 if it was new, 0 if seen before, -1 when out of memory. */
static int seen_add(Seen *seen, uint64_t h) {
    if (!h) h = 1;
    size_t j = h & seen->mask;
    while (seen->slots[j]) {
        if (seen->slots[j] == h) return 0;
        j = (j + 1) & seen->mask;
    }
    seen->slots[j] = h;
    if (++seen->used * 2 > seen->mask + 1 && !seen_grow(seen)) return -1;
    return 1;
}

/* --- rules ------------------------------------------------------------------------------ */

static int sits_on(const Rules *r, int card, int onto) { return (int)((r->sits[onto] >> card) & 1u); }

static int draws_in_pass(const Rules *r, int passes) {
    if (!r->has_rolls) return r->draw;
    return r->rolls[passes < MAX_PASSES ? passes : MAX_PASSES];
}

static int safe(const Rules *r, const uint8_t *found, int card) {
    int rel = r->rel[card], suit = r->suit[card];
    for (int s = 0; s < 4; s++) {
        if (!((r->helpers[suit] >> s) & 1)) continue;
        if (r->reference) {
            if (rel != 0 && found[s] < rel) return 0;
        } else if (found[s] <= (rel + 12) % 13) {
            return 0;
        }
    }
    return 1;
}

static int accepts(const Rules *r, const uint8_t *found, int card) {
    return found[r->suit[card]] < 13 && r->rel[card] == found[r->suit[card]];
}

/* Each card that drawing can bring to the top of the waste, once, fewest draws first. */
static int talon_cards(Rules *r, const State *s, TalonCard *out) {
    int count = 0;
    uint64_t cards = 0;
    int n = s->n, w = s->w, passes = s->passes, draws = 0;
    int track_passes = r->redeals >= 0 || r->has_rolls;
    if (w > 0) {
        out[count++] = (TalonCard){0, s->talon[w - 1], (uint8_t)(w - 1), (uint8_t)passes};
        cards |= 1ull << s->talon[w - 1];
    }
    if (++r->stamp == 0) {
        memset(r->seen, 0, sizeof(r->seen));
        r->stamp = 1;
    }
    for (;;) {
        if (w < n) {
            w += draws_in_pass(r, passes);
            if (w > n) w = n;
        } else if (w > 0 && (r->redeals < 0 || passes < r->redeals)) {
            if (passes >= MAX_PASSES) {
                r->capped = 1;
                break;
            }
            passes++;
            w = draws_in_pass(r, passes);
            if (w > n) w = n;
        } else {
            break;
        }
        draws++;
        int p = track_passes ? passes : 0;
        if (r->seen[p][w] == r->stamp) break;
        r->seen[p][w] = r->stamp;
        int top = s->talon[w - 1];
        if (!((cards >> top) & 1)) {
            cards |= 1ull << top;
            out[count++] = (TalonCard){(uint8_t)draws, (uint8_t)top, (uint8_t)(w - 1), (uint8_t)passes};
        }
    }
    return count;
}

static int group_sizes(const Rules *r, const State *s, int c, int *sizes) {
    int len = s->len[c];
    if (!len) return 0;
    const uint8_t *col = s->col[c];
    int run = 1;
    while (run < len && sits_on(r, col[len - run], col[len - run - 1])) run++;
    if (r->any_group) {
        for (int i = 0; i < run; i++) sizes[i] = i + 1;
        return run;
    }
    sizes[0] = 1;
    if (run == len && len > 1) {
        sizes[1] = len;
        return 2;
    }
    return 1;
}

/* Whether moving the top `count` cards of column c onto the card `onto` is a partial group move
 * between twins that the pruning leaves out (solver.py's Search.twin_move). */
static int twin_move(const Rules *r, const State *s, int c, int count, int onto) {
    int len = s->len[c];
    if (count >= len) return 0;
    int left = s->col[c][len - count - 1];
    return sits_on(r, s->col[c][len - count], left) && r->sits[left] == r->sits[onto] && !accepts(r, s->found, left);
}

/* Every move from a position, in the order solver.py's Search.moves yields them. */
static int moves_of(Rules *r, const State *s, Move *out) {
    int count = 0;
    TalonCard talon[DECK + 1];
    int ntalon = talon_cards(r, s, talon);
    int empty = -1, tops[COLUMNS];
    for (int c = 0; c < COLUMNS; c++) {
        tops[c] = s->len[c] ? s->col[c][s->len[c] - 1] : -1;
        if (empty < 0 && !s->len[c]) empty = c;
    }
    int reserve_top = s->reserve ? r->reserve[s->reserve - 1] : -1;
    if (reserve_top >= 0 && accepts(r, s->found, reserve_top))
        out[count++] = (Move){TO_FOUNDATION, PILE_RESERVE, 0, 1, 0, 0, 0};
    for (int c = 0; c < COLUMNS; c++)
        if (tops[c] >= 0 && accepts(r, s->found, tops[c]))
            out[count++] = (Move){TO_FOUNDATION, (uint8_t)c, 0, 1, 0, 0, 0};
    for (int t = 0; t < ntalon; t++)
        if (accepts(r, s->found, talon[t].card))
            out[count++] = (Move){TO_FOUNDATION, PILE_WASTE, 0, 1, talon[t].draws, talon[t].index, talon[t].passes};
    if (reserve_top >= 0)
        for (int c = 0; c < COLUMNS; c++)
            if ((tops[c] >= 0 && sits_on(r, reserve_top, tops[c])) || c == empty)
                out[count++] = (Move){RESERVE_TO_COLUMN, PILE_RESERVE, (uint8_t)c, 1, 0, 0, 0};
    /* Column to column, sorted by (source, cards, destination); whole columns that let the
     * reserve fill the space come first. */
    Move shuffles[MAX_MOVES];
    int nshuffles = 0;
    for (int src = 0; src < COLUMNS; src++) {
        int sizes[DECK];
        int nsizes = group_sizes(r, s, src, sizes);
        for (int i = 0; i < nsizes; i++) {
            int size = sizes[i], head = s->col[src][s->len[src] - size];
            for (int dst = 0; dst < COLUMNS; dst++) {
                if (dst == src) continue;
                int fits = tops[dst] >= 0 ? sits_on(r, head, tops[dst]) : (dst == empty && size < s->len[src]);
                if (!fits || (r->prune && tops[dst] >= 0 && twin_move(r, s, src, size, tops[dst]))) continue;
                Move m = {COLUMN_TO_COLUMN, (uint8_t)src, (uint8_t)dst, (uint8_t)size, 0, 0, 0};
                if (r->fill && s->reserve && size == s->len[src])
                    out[count++] = m;
                else
                    shuffles[nshuffles++] = m;
            }
        }
    }
    memcpy(out + count, shuffles, (size_t)nshuffles * sizeof(Move));
    count += nshuffles;
    for (int t = 0; t < ntalon; t++)
        for (int c = 0; c < COLUMNS; c++)
            if ((tops[c] >= 0 && sits_on(r, talon[t].card, tops[c])) || c == empty)
                out[count++] = (Move){WASTE_TO_COLUMN, PILE_WASTE, (uint8_t)c, 1, talon[t].draws, talon[t].index,
                                      talon[t].passes};
    return count;
}

/* Takes the card at talon[index] (the waste's top once drawn to), leaving the waste below it. */
static int take_from_talon(State *s, const Move *m) {
    int card = s->talon[m->index];
    memmove(s->talon + m->index, s->talon + m->index + 1, (size_t)(s->n - m->index - 1));
    s->n--;
    s->w = m->index;
    s->passes = m->passes;
    return card;
}

/* An emptied column takes the reserve's top, when the rules say so. */
static void refill(const Rules *r, State *s, int c) {
    if (!s->len[c] && r->fill && s->reserve) {
        s->col[c][0] = (uint8_t)r->reserve[--s->reserve];
        s->len[c] = 1;
    }
}

/* Plays a move on s; returns the step it is. */
static Step apply(const Rules *r, State *s, const Move *m) {
    Step step = {m->draws, m->src, m->dst, m->count};
    int card;
    switch (m->kind) {
    case TO_FOUNDATION:
        if (m->src == PILE_RESERVE) {
            card = r->reserve[--s->reserve];
        } else if (m->src == PILE_WASTE) {
            card = take_from_talon(s, m);
        } else {
            card = s->col[m->src][--s->len[m->src]];
            refill(r, s, m->src);
        }
        s->found[r->suit[card]]++;
        step.dst = (uint8_t)(PILE_FOUNDATION + r->suit[card]);
        break;
    case RESERVE_TO_COLUMN:
        s->col[m->dst][s->len[m->dst]++] = (uint8_t)r->reserve[--s->reserve];
        break;
    case WASTE_TO_COLUMN:
        card = take_from_talon(s, m);
        s->col[m->dst][s->len[m->dst]++] = (uint8_t)card;
        break;
    default: /* COLUMN_TO_COLUMN */
        memcpy(s->col[m->dst] + s->len[m->dst], s->col[m->src] + s->len[m->src] - m->count, m->count);
        s->len[m->dst] += m->count;
        s->len[m->src] -= m->count;
        refill(r, s, m->src);
    }
    return step;
}

/* Makes every safe foundation move from the reserve and the columns; appends their steps. */
static int autoplay(const Rules *r, State *s, Step *steps) {
    int made = 0;
    for (;;) {
        int src = -1, card = -1;
        if (s->reserve) {
            card = r->reserve[s->reserve - 1];
            if (accepts(r, s->found, card) && safe(r, s->found, card)) src = PILE_RESERVE;
        }
        for (int c = 0; src < 0 && c < COLUMNS; c++) {
            if (!s->len[c]) continue;
            card = s->col[c][s->len[c] - 1];
            if (accepts(r, s->found, card) && safe(r, s->found, card)) src = c;
        }
        if (src < 0) return made;
        Move m = {TO_FOUNDATION, (uint8_t)src, 0, 1, 0, 0, 0};
        steps[made++] = apply(r, s, &m);
    }
}

static int won(const State *s) { return s->found[0] + s->found[1] + s->found[2] + s->found[3] == DECK; }

/* The hash of a position's key: columns in any order; talon positions drawing makes equal. */
static uint64_t key_hash(const Rules *r, const State *s) {
    uint8_t buf[4 + 1 + COLUMNS * (DECK + 1) + 3 + DECK + 8];
    size_t at = 0;
    memcpy(buf, s->found, 4);
    at = 4;
    buf[at++] = s->reserve;
    int order[COLUMNS] = {0, 1, 2, 3};
    for (int i = 1; i < COLUMNS; i++) {
        int c = order[i], j = i;
        while (j > 0) {
            int o = order[j - 1], shorter = s->len[o] < s->len[c] ? s->len[o] : s->len[c];
            int cmp = memcmp(s->col[o], s->col[c], (size_t)shorter);
            if (cmp < 0 || (cmp == 0 && s->len[o] <= s->len[c])) break;
            order[j] = o;
            j--;
        }
        order[j] = c;
    }
    for (int i = 0; i < COLUMNS; i++) {
        int c = order[i];
        buf[at++] = (uint8_t)(0x80 | s->len[c]);
        memcpy(buf + at, s->col[c], s->len[c]);
        at += s->len[c];
    }
    int w = s->w, passes = s->passes;
    if (r->redeals < 0 && !r->has_rolls) {
        /* Unlimited redeals: drawing to the end, redealing and drawing again comes back to
         * every waste length that is a multiple of the draw, so those talons are one. */
        if (w == s->n || w % r->draw == 0) w = 0;
        passes = 0;
    }
    buf[at++] = s->n;
    buf[at++] = (uint8_t)w;
    buf[at++] = (uint8_t)passes;
    memcpy(buf + at, s->talon, s->n);
    at += s->n;
    /* Eight bytes at a time, each word mixed in by a multiply; then a finishing mix so that
     * the low bits (the table index) are well spread. */
    memset(buf + at, 0, 8);
    uint64_t h = (uint64_t)at * 0x9e3779b97f4a7c15ull;
    for (size_t i = 0; i < at; i += 8) {
        uint64_t word;
        memcpy(&word, buf + i, 8);
        h = (h ^ word) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 29;
    }
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return h;
}

/* --- the search ------------------------------------------------------------------------- */

typedef struct {
    State state;
    int moves_at, nmoves, next; /* its moves in the move arena */
    int steps_at, nsteps;       /* the steps that led here, in the step arena */
} Frame;

enum { WINNABLE = 0, UNWINNABLE = 1, GAVE_UP = 2, NO_MEMORY = 3 };

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

#define GROW(ptr, cap, need, type)                                           \
    if ((need) > (cap)) {                                                    \
        size_t bigger = (cap) * 2 > (size_t)(need) ? (cap) * 2 : (size_t)(need); \
        type *grown = realloc((ptr), bigger * sizeof(type));                 \
        if (!grown) { status = NO_MEMORY; goto done; }                       \
        (ptr) = grown;                                                       \
        (cap) = bigger;                                                      \
    }

/* Searches from `start`; on a win, `*line` holds the steps (caller frees). */
static int search(Rules *r, const State *start, long long limit, double seconds, Step **line, int *line_len,
                  long long *positions) {
    int status = UNWINNABLE;
    double deadline = seconds >= 0 ? now() + seconds : 0;
    size_t frames_cap = 256, moves_cap = 256 * 64, steps_cap = 4096;
    Frame *frames = malloc(frames_cap * sizeof(Frame));
    Move *moves = malloc(moves_cap * sizeof(Move));
    Step *steps = malloc(steps_cap * sizeof(Step));
    Seen seen = {0};
    int depth = 0, moves_top = 0, steps_top = 0;
    *positions = 0;
    *line = NULL;
    *line_len = 0;
    if (!frames || !moves || !steps || !seen_init(&seen)) {
        status = NO_MEMORY;
        goto done;
    }
    Frame *root = &frames[0];
    root->state = *start;
    root->steps_at = 0;
    root->nsteps = autoplay(r, &root->state, steps);
    steps_top = root->nsteps;
    if (won(&root->state)) {
        status = WINNABLE;
        depth = 1;
        goto winning;
    }
    seen_add(&seen, key_hash(r, &root->state));
    *positions = 1;
    GROW(moves, moves_cap, (size_t)MAX_MOVES, Move);
    root->moves_at = 0;
    root->nmoves = moves_of(r, &root->state, moves);
    root->next = 0;
    moves_top = root->nmoves;
    depth = 1;
    while (depth) {
        Frame *frame = &frames[depth - 1];
        if (frame->next >= frame->nmoves) {
            moves_top = frame->moves_at;
            steps_top = frame->steps_at;
            depth--;
            continue;
        }
        Move move = moves[frame->moves_at + frame->next++];
        GROW(frames, frames_cap, (size_t)depth + 1, Frame);
        frame = &frames[depth - 1];
        Frame *child = &frames[depth];
        child->state = frame->state;
        GROW(steps, steps_cap, (size_t)steps_top + DECK + 1, Step);
        child->steps_at = steps_top;
        steps[steps_top] = apply(r, &child->state, &move);
        child->nsteps = 1 + autoplay(r, &child->state, steps + steps_top + 1);
        if (won(&child->state)) {
            steps_top += child->nsteps;
            depth++;
            status = WINNABLE;
            goto winning;
        }
        int added = seen_add(&seen, key_hash(r, &child->state));
        if (added < 0) {
            status = NO_MEMORY;
            goto done;
        }
        if (!added) continue;
        if (r->redeals < 0 && !r->has_rolls && child->state.w % r->draw && child->state.w != child->state.n) {
            /* Drawing to the end and redealing reaches the talon's start from here: that
             * position has no moves this one lacks. */
            State restart = child->state;
            restart.w = 0;
            if (seen_add(&seen, key_hash(r, &restart)) < 0) {
                status = NO_MEMORY;
                goto done;
            }
        }
        if (++*positions > limit || (seconds >= 0 && (*positions & 1023) == 0 && now() > deadline)) {
            status = GAVE_UP;
            goto done;
        }
        steps_top += child->nsteps;
        GROW(moves, moves_cap, (size_t)moves_top + MAX_MOVES, Move);
        child->moves_at = moves_top;
        child->nmoves = moves_of(r, &child->state, moves + moves_top);
        child->next = 0;
        moves_top += child->nmoves;
        depth++;
    }
    status = r->capped ? GAVE_UP : UNWINNABLE;
    goto done;
winning:
    *line_len = steps_top;
    *line = malloc((size_t)(steps_top ? steps_top : 1) * sizeof(Step));
    if (!*line) {
        status = NO_MEMORY;
        goto done;
    }
    memcpy(*line, steps, (size_t)steps_top * sizeof(Step));
done:
    free(frames);
    free(moves);
    free(steps);
    free(seen.slots);
    return status;
}

/* --- the Python face -------------------------------------------------------------------- */

static int read_ints(PyObject *seq, int *out, Py_ssize_t expected, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return 0;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (expected >= 0 && n != expected) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: expected %zd values, got %zd", what, expected, n);
        return 0;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        out[i] = (int)PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (out[i] == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return 0;
        }
    }
    Py_DECREF(fast);
    return 1;
}

static int read_cards(PyObject *seq, uint8_t *out, int *len, const char *what) {
    int values[DECK];
    Py_ssize_t n = PySequence_Size(seq);
    if (n < 0) return 0;
    if (n > DECK) {
        PyErr_Format(PyExc_ValueError, "%s: too many cards", what);
        return 0;
    }
    if (!read_ints(seq, values, n, what)) return 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (values[i] < 0 || values[i] >= DECK) {
            PyErr_Format(PyExc_ValueError, "%s: %d is not a card", what, values[i]);
            return 0;
        }
        out[i] = (uint8_t)values[i];
    }
    *len = (int)n;
    return 1;
}

PyDoc_STRVAR(solve_doc,
             "solve(tables, options, position, limit, seconds) -> (status, steps, positions, capped)\n\n"
             "The search of bot.game.solver.solve; call it through that function.");

static PyObject *core_solve(PyObject *self, PyObject *args) {
    PyObject *suit, *rel, *sits, *helpers, *wanted, *reserve, *rolls;
    PyObject *found, *columns, *talon;
    int any_group, fill, redeals, draw, reference, prune, reserve_len, waste, passes;
    long long limit;
    double seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "(OOOOOO)(iiiiiOi)(OiOOii)Ld", &suit, &rel, &sits, &helpers, &wanted, &reserve,
                          &any_group, &fill, &redeals, &draw, &reference, &rolls, &prune, &found, &reserve_len, &columns,
                          &talon, &waste, &passes, &limit, &seconds))
        return NULL;
    Rules *r = calloc(1, sizeof(Rules));
    if (!r) return PyErr_NoMemory();
    State start;
    memset(&start, 0, sizeof(start));
    int values[DECK * 13], n;
    PyObject *result = NULL;
    if (!read_ints(suit, r->suit, DECK, "suit") || !read_ints(rel, r->rel, DECK, "rel") ||
        !read_ints(helpers, r->helpers, 4, "helpers") || !read_ints(wanted, values, 52, "wanted"))
        goto out;
    for (int i = 0; i < 52; i++) r->wanted[i / 13][i % 13] = values[i];
    {
        PyObject *fast = PySequence_Fast(sits, "sits");
        if (!fast) goto out;
        if (PySequence_Fast_GET_SIZE(fast) != DECK) {
            Py_DECREF(fast);
            PyErr_SetString(PyExc_ValueError, "sits: expected 52 masks");
            goto out;
        }
        for (int i = 0; i < DECK; i++) r->sits[i] = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(fast, i));
        Py_DECREF(fast);
        if (PyErr_Occurred()) goto out;
    }
    {
        uint8_t cards[DECK];
        if (!read_cards(reserve, cards, &r->reserve_len, "reserve")) goto out;
        for (int i = 0; i < r->reserve_len; i++) r->reserve[i] = cards[i];
    }
    r->any_group = any_group;
    r->fill = fill;
    r->redeals = redeals;
    r->draw = draw;
    r->reference = reference;
    r->prune = prune;
    if (rolls != Py_None) {
        if (!read_ints(rolls, r->rolls, MAX_PASSES + 1, "rolls")) goto out;
        r->has_rolls = 1;
    }
    if (!read_ints(found, values, 4, "foundations")) goto out;
    for (int i = 0; i < 4; i++) start.found[i] = (uint8_t)values[i];
    if (reserve_len < 0 || reserve_len > r->reserve_len) {
        PyErr_SetString(PyExc_ValueError, "reserve length out of range");
        goto out;
    }
    start.reserve = (uint8_t)reserve_len;
    if (PySequence_Size(columns) != COLUMNS) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "expected four columns");
        goto out;
    }
    for (int c = 0; c < COLUMNS; c++) {
        PyObject *column = PySequence_GetItem(columns, c);
        if (!column) goto out;
        int ok = read_cards(column, start.col[c], &n, "column");
        Py_DECREF(column);
        if (!ok) goto out;
        start.len[c] = (uint8_t)n;
    }
    if (!read_cards(talon, start.talon, &n, "talon")) goto out;
    start.n = (uint8_t)n;
    if (waste < 0 || waste > n || r->draw < 1 || passes < 0 || passes > MAX_PASSES) {
        PyErr_SetString(PyExc_ValueError, "talon position out of range");
        goto out;
    }
    start.w = (uint8_t)waste;
    start.passes = (uint8_t)passes;
    {
        Step *line;
        int line_len, status;
        long long positions;
        Py_BEGIN_ALLOW_THREADS
        status = search(r, &start, limit, seconds, &line, &line_len, &positions);
        Py_END_ALLOW_THREADS
        if (status == NO_MEMORY) {
            free(line);
            PyErr_NoMemory();
            goto out;
        }
        PyObject *steps = PyBytes_FromStringAndSize((const char *)line, (Py_ssize_t)line_len * (Py_ssize_t)sizeof(Step));
        free(line);
        if (!steps) goto out;
        result = Py_BuildValue("(iNLi)", status, steps, positions, r->capped);
    }
out:
    free(r);
    return result;
}

static PyMethodDef core_methods[] = {
    {"solve", core_solve, METH_VARARGS, solve_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef core_module = {
    PyModuleDef_HEAD_INIT, "_solver_core", "The solver's search in C (see solver.py).", -1, core_methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver_core(void) { return PyModule_Create(&core_module); }
