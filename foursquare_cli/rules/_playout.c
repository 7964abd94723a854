/* The greedy playout of integer_playout.py (`finish_python`), move for move, in C: the inner loop of every
 * simulation, some fifty times faster than the Python. No rule lives here: the tests hold the two
 * versions to the same results on random positions, and playout.py uses this one when it was built.
 *
 * deal(seen, unseen, key) -> stock: `seen` then `unseen` in an order drawn from `key` (`integer_playout.deal_python`).
 *
 * finish(stock, drawn, occupied, down, ranks, heights, fill_first=False) -> (score, drawn, occupied, down)
 *   stock: 40 bytes, the rank (1-10) of every card of the deck in drawing order;
 *   ranks, heights: 16 bytes each, the top rank (0 when empty) and height of every cell;
 *   the position must be one still being played (`drawn` < 40);
 *   fill_first: the best empty cell whenever it leaves at most four face down (`integer_playout.greedy_pick`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Counting bits and finding the lowest: the compiler's builtins with gcc and clang, MSVC's intrinsic
 * (_BitScanForward) with MSVC, plain C elsewhere. FOURSQUARE_PORTABLE_BITS forces the plain C: a slow test
 * builds the module so and holds it to the others. */
#if !defined(FOURSQUARE_PORTABLE_BITS) && (defined(__GNUC__) || defined(__clang__))
#define bit_count(x) __builtin_popcount(x)
#define lowest_bit(x) __builtin_ctz(x)
#else
static inline int bit_count(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (int)((((x + (x >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
#if !defined(FOURSQUARE_PORTABLE_BITS) && defined(_MSC_VER)
#include <intrin.h>
#pragma intrinsic(_BitScanForward)
static inline int lowest_bit(uint32_t x) {
    unsigned long index;
    _BitScanForward(&index, x);
    return (int)index;
}
#else
static inline int lowest_bit(uint32_t x) { /* x is never 0 */
    int index = 0;
    while (!(x & 1u)) x >>= 1, index++;
    return index;
}
#endif
#endif

#define MAX_PILE 4
#define MAX_FACE_DOWN 4

/* The grid's geometry, from foursquare_cli/rules/tables.py (the engine's and the Python playout's tables too):
 * ROW_OTHERS, COLUMN_OTHERS, NEIGHBOURS, LINE_MASKS, NEEDS_EMPTY (the edge a shift needs empty), BELOW and
 * UP_TO (the line counts' bounds), BESIDE_CELL and BESIDE_LINE (the cells beside the edge a shift opens). */
#include "_tables.h"

static inline int flips_with(uint64_t count, uint64_t below, uint64_t up_to) {
    return count < below || !(count & up_to);
}

/* `integer_playout.greedy_pick`: returns the face-down count after, sets the cell, the mask after and the direction. */
static int pick(int rank, uint32_t occupied, uint32_t down, const uint8_t *ranks, const uint8_t *heights,
                const uint64_t *lines, int fill_first, int *cell_out, uint32_t *after_out, int *direction_out) {
    uint64_t below = BELOW[rank], up_to = UP_TO[rank];
    int best_key = 1 << 30, best_cell = 0, best_direction = -1;
    int empty_key = 1 << 30, empty_cell = 0, empty_direction = -1;
    uint32_t best_down = 0, empty_down = 0;
    int flips[8];
    for (int line = 0; line < 8; line++) flips[line] = flips_with(lines[line], below, up_to);
    for (int cell = 0; cell < 16; cell++) {
        uint32_t bit = 1u << cell, after;
        int row_line = cell >> 2, column_line = 4 + (cell & 3), key, row_flips, column_flips;
        if (occupied & bit) {
            int height = heights[cell];
            if (height >= MAX_PILE) continue;
            after = down & ~bit;
            key = 32 + 4 * height;
            if (down & bit) {
                row_flips = flips[row_line], column_flips = flips[column_line];
            } else {
                uint64_t own = BELOW[ranks[cell]];
                row_flips = flips_with(lines[row_line] - own, below, up_to);
                column_flips = flips_with(lines[column_line] - own, below, up_to);
            }
        } else {
            uint32_t near = NEIGHBOURS[cell] & occupied;
            if (!near) continue;
            after = down;
            key = 16 - 4 * bit_count(near);
            row_flips = flips[row_line], column_flips = flips[column_line];
        }
        if (row_flips) after ^= ROW_OTHERS[cell] & occupied;
        if (column_flips) after ^= COLUMN_OTHERS[cell] & occupied;
        key += bit_count(after) * 64;
        if (key < best_key) best_key = key, best_cell = cell, best_down = after;
        if (!(occupied & bit) && key < empty_key) empty_key = key, empty_cell = cell, empty_down = after;
    }
    for (int direction = 0; direction < 4; direction++) {
        if (occupied & NEEDS_EMPTY[direction]) continue;
        for (int i = 0; i < 4; i++) {
            int cell = BESIDE_CELL[direction][i], line = BESIDE_LINE[direction][i];
            if (!(occupied >> cell & 1)) continue;
            uint32_t after = flips[line] ? down ^ (LINE_MASKS[line] & occupied) : down;
            int key = bit_count(after) * 64 + 12;
            if (key < best_key) best_key = key, best_cell = cell, best_down = after, best_direction = direction;
            if (key < empty_key) empty_key = key, empty_cell = cell, empty_down = after, empty_direction = direction;
        }
    }
    if (fill_first && (empty_key >> 6) <= MAX_FACE_DOWN) {
        *cell_out = empty_cell, *after_out = empty_down, *direction_out = empty_direction;
        return empty_key >> 6;
    }
    *cell_out = best_cell, *after_out = best_down, *direction_out = best_direction;
    return best_key >> 6;
}

/* `_shifted`: the position slid one cell (up, down, left, right). */
static void shift(int direction, uint32_t *occupied, uint32_t *down, uint32_t *after, uint8_t *ranks,
                  uint8_t *heights) {
    switch (direction) {
    case 0:
        *occupied >>= 4, *down >>= 4, *after >>= 4;
        memmove(ranks, ranks + 4, 12), memset(ranks + 12, 0, 4);
        memmove(heights, heights + 4, 12), memset(heights + 12, 0, 4);
        break;
    case 1:
        *occupied = *occupied << 4 & FULL, *down = *down << 4 & FULL, *after = *after << 4 & FULL;
        memmove(ranks + 4, ranks, 12), memset(ranks, 0, 4);
        memmove(heights + 4, heights, 12), memset(heights, 0, 4);
        break;
    case 2:
        *occupied >>= 1, *down >>= 1, *after >>= 1;
        memmove(ranks, ranks + 1, 15), ranks[15] = 0;
        memmove(heights, heights + 1, 15), heights[15] = 0;
        break;
    default:
        *occupied = *occupied << 1 & FULL, *down = *down << 1 & FULL, *after = *after << 1 & FULL;
        memmove(ranks + 1, ranks, 15), ranks[0] = 0;
        memmove(heights + 1, heights, 15), heights[0] = 0;
    }
}

static void count_lines(uint32_t up, const uint8_t *ranks, uint64_t *lines) {
    memset(lines, 0, 8 * sizeof *lines);
    for (int cell = 0; cell < 16; cell++) {
        if (up >> cell & 1) {
            uint64_t one = BELOW[ranks[cell]];
            lines[cell >> 2] += one;
            lines[4 + (cell & 3)] += one;
        }
    }
}

#define STOPPED (-2) /* a playout stopped before its end (`stop_at`): what the tail table says of it counts */

/* The greedy playout itself, on plain C values: `ranks` and `heights` are played on (the caller's copies).
 * Returns the score (-1 for a loss; STOPPED when `stop_at` cards were drawn first) and sets the cards drawn and
 * the masks of the last position. */
static int play_to_end(const uint8_t *stock, int drawn, uint32_t occupied, uint32_t down, uint8_t *ranks,
                       uint8_t *heights, int fill_first, int stop_at, int *drawn_out, uint32_t *occupied_out,
                       uint32_t *down_out) {
    uint64_t lines[8];
    count_lines(occupied & ~down, ranks, lines);
    *drawn_out = drawn, *occupied_out = occupied, *down_out = down;
    for (;;) {
        if (drawn >= stop_at) return STOPPED;
        int rank = stock[drawn], fewest, cell, direction;
        uint32_t after;
        if (occupied) {
            fewest = pick(rank, occupied, down, ranks, heights, lines, fill_first, &cell, &after, &direction);
            if (direction >= 0) {
                shift(direction, &occupied, &down, &after, ranks, heights);
                count_lines(occupied & ~down, ranks, lines);
            }
            uint32_t bit = 1u << cell;
            if (occupied & ~down & bit) {
                uint64_t one = BELOW[ranks[cell]];
                lines[cell >> 2] -= one;
                lines[4 + (cell & 3)] -= one;
            }
            uint32_t turned = (down ^ after) & ~bit;
            while (turned) {
                uint32_t low = turned & (~turned + 1u); /* the lowest bit (no unary minus on unsigned: MSVC) */
                int other = lowest_bit(low);
                uint64_t one = BELOW[ranks[other]];
                if (after & low) {
                    lines[other >> 2] -= one;
                    lines[4 + (other & 3)] -= one;
                } else {
                    lines[other >> 2] += one;
                    lines[4 + (other & 3)] += one;
                }
                turned ^= low;
            }
            down = after;
        } else {
            fewest = 0, cell = 5;
        }
        uint64_t one = BELOW[rank];
        lines[cell >> 2] += one;
        lines[4 + (cell & 3)] += one;
        drawn++;
        occupied |= 1u << cell;
        ranks[cell] = (uint8_t)rank;
        heights[cell]++;
        *drawn_out = drawn, *occupied_out = occupied, *down_out = down;
        if (occupied == FULL && !down) return 40 - drawn;
        if (fewest > MAX_FACE_DOWN || drawn == 40) return -1;
    }
}

/* Whether a grid can be one of a game `drawn` cards in: every occupied cell holds a card, and the grid holds no
 * more cards than were drawn. Then a grid is full only once 16 cards were drawn, so a win scores at most 24 (the
 * last entry of `won_worth`), and some pile always takes a card (a full grid of piles of 4 is 64 cards): a
 * search always has a move to try. */
static int grid_fits(uint32_t occupied, int drawn, const uint8_t *heights) {
    int cards = 0;
    for (int cell = 0; cell < 16; cell++) {
        if (!(occupied >> cell & 1)) continue;
        if (!heights[cell]) return 0;
        cards += heights[cell];
    }
    return cards <= drawn;
}

static PyObject *finish(PyObject *self, PyObject *args) {
    const uint8_t *stock, *ranks_in, *heights_in;
    Py_ssize_t stock_length, ranks_length, heights_length;
    int drawn, occupied_in, down_in, fill_first = 0, stop_at = 40;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#iiiy#y#|pi", &stock, &stock_length, &drawn, &occupied_in, &down_in, &ranks_in,
                          &ranks_length, &heights_in, &heights_length, &fill_first, &stop_at))
        return NULL;
    if (stock_length != 40 || ranks_length != 16 || heights_length != 16 || drawn < 0 || drawn >= 40 ||
        occupied_in < 0 || occupied_in > (int)FULL || down_in < 0 || (down_in & ~occupied_in)) {
        PyErr_SetString(PyExc_ValueError, "finish: not a position being played");
        return NULL;
    }
    for (int i = 0; i < 40; i++)
        if (stock[i] < 1 || stock[i] > 10) {
            PyErr_SetString(PyExc_ValueError, "finish: a rank in the stock is not 1 to 10");
            return NULL;
        }
    uint8_t ranks[16], heights[16];
    for (int cell = 0; cell < 16; cell++) {
        if (ranks_in[cell] > 10 || heights_in[cell] > 40) {
            PyErr_SetString(PyExc_ValueError, "finish: a top rank or a height out of range");
            return NULL;
        }
        ranks[cell] = ranks_in[cell];
        heights[cell] = heights_in[cell];
    }
    uint32_t occupied, down;
    int score = play_to_end(stock, drawn, (uint32_t)occupied_in, (uint32_t)down_in, ranks, heights, fill_first,
                            stop_at, &drawn, &occupied, &down);
    return Py_BuildValue("(iiII)", score, drawn, occupied, down);
}

/* safe_ranks(occupied, down, ranks, heights) -> mask: bit r (1-10) set when a card of rank r has a placement
 * (beyond an edge included, the layout shifted) that leaves at most four face down (`integer_playout.safe_ranks_python`). */
static PyObject *safe_ranks(PyObject *self, PyObject *args) {
    const uint8_t *ranks_in, *heights_in;
    Py_ssize_t ranks_length, heights_length;
    int occupied_in, down_in;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiy#y#", &occupied_in, &down_in, &ranks_in, &ranks_length, &heights_in,
                          &heights_length))
        return NULL;
    if (ranks_length != 16 || heights_length != 16 || occupied_in <= 0 || occupied_in > (int)FULL || down_in < 0 ||
        (down_in & ~occupied_in)) {
        PyErr_SetString(PyExc_ValueError, "safe_ranks: not a position with a pile");
        return NULL;
    }
    for (int cell = 0; cell < 16; cell++)
        if (ranks_in[cell] > 10) {
            PyErr_SetString(PyExc_ValueError, "safe_ranks: a top rank out of range");
            return NULL;
        }
    uint32_t occupied = (uint32_t)occupied_in, down = (uint32_t)down_in, after;
    uint64_t lines[8];
    count_lines(occupied & ~down, ranks_in, lines);
    long mask = 0;
    for (int rank = 1; rank <= 10; rank++) {
        int cell, direction;
        if (pick(rank, occupied, down, ranks_in, heights_in, lines, 0, &cell, &after, &direction) <= MAX_FACE_DOWN)
            mask |= 1L << rank;
    }
    return PyLong_FromLong(mask);
}

/* splitmix64: the generator `integer_playout.deal_python` runs too, so that both versions deal the same futures. */
static inline uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The unseen cards' ranks in an order drawn from `key` (Fisher-Yates on splitmix64 numbers), after `seen`. */
static void shuffled(uint8_t *stock, const uint8_t *seen, Py_ssize_t seen_length, const uint8_t *unseen,
                     Py_ssize_t unseen_length, uint64_t key) {
    memcpy(stock, seen, seen_length);
    uint8_t *order = stock + seen_length;
    memcpy(order, unseen, unseen_length);
    uint64_t state = key;
    for (Py_ssize_t i = unseen_length - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)(((next_random(&state) >> 32) * (uint64_t)(i + 1)) >> 32);
        uint8_t card = order[i];
        order[i] = order[j], order[j] = card;
    }
}

static PyObject *deal(PyObject *self, PyObject *args) {
    const uint8_t *seen, *unseen;
    Py_ssize_t seen_length, unseen_length;
    unsigned long long key;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#y#K", &seen, &seen_length, &unseen, &unseen_length, &key)) return NULL;
    if (seen_length + unseen_length > 40) {
        PyErr_SetString(PyExc_ValueError, "deal: more than 40 cards");
        return NULL;
    }
    uint8_t stock[40];
    shuffled(stock, seen, seen_length, unseen, unseen_length, key);
    return PyBytes_FromStringAndSize((const char *)stock, seen_length + unseen_length);
}

/* futures(seen, unseen, seed, first, count, starts, fill_first, won_worth, lost_worth) -> totals
 *
 * The futures numbered first to first + count - 1 of a position (future i is `unseen` in the order drawn from
 * the i-th splitmix64 number of `seed`, after `seen`: `future_key`), each played by every candidate of `starts`.
 * starts: a record of START_BYTES for each candidate: its end (0 still being played, 1 lost, 2 won), the score
 * when won, the cards drawn, the occupied and face-down masks (two bytes each, low first), 16 top ranks and 16
 * heights. won_worth: 25 int64 (a win's worth by score), lost_worth: 41 int64 (a loss's by the cards placed
 * until it, the one that could not be included), in millionths, so that sums are exact in any order.
 * totals: three int64 a candidate: futures won, their scores summed, the worth summed (`integer_playout.futures_python`).
 * The work is done with the interpreter's lock let go: threads may play futures side by side. */
#define START_BYTES 39
/* The tail table (`tail_table.TAIL_TABLE`): for each position a playout may stop at, by cards drawn (0-40), face
 * down (0-4) and empty cells (0-16), three int32: the worth of its futures, their share won and their score (a
 * loss 0), in millionths, as the playouts to the end made them, TAIL_CARDS cards after a search's start. */
#define TAIL_CELLS (41 * 5 * 17)
#define TAIL_BYTES (TAIL_CELLS * 3 * 4)
#define UNITS 1000000

static int tail_cell(int drawn, uint32_t occupied, uint32_t down) {
    return (drawn * 5 + bit_count(down)) * 17 + 16 - bit_count(occupied);
}

/* A future's part of its candidate's totals (futures won, their scores, their worth): with no tail table, counts;
 * with one, all three in millionths, a stopped playout counting what the table says of where it stopped. */
static void count_future(int64_t *total, int score, int placed, int drawn, uint32_t occupied, uint32_t down,
                         const int64_t *won_worth, const int64_t *lost_worth, const uint8_t *tail_table) {
    int64_t unit = tail_table ? UNITS : 1;
    if (score == STOPPED) {
        int32_t cell[3];
        memcpy(cell, tail_table + 12 * tail_cell(drawn, occupied, down), sizeof cell);
        total[0] += cell[1], total[1] += cell[2], total[2] += cell[0];
    } else if (score >= 0) {
        total[0] += unit, total[1] += score * unit, total[2] += won_worth[score];
    } else {
        total[2] += lost_worth[placed];
    }
}

static PyObject *futures(PyObject *self, PyObject *args) {
    const uint8_t *seen, *unseen, *starts;
    const char *won_worth_bytes, *lost_worth_bytes, *tail_bytes = NULL;
    Py_ssize_t seen_length, unseen_length, starts_length, won_length, lost_length, tail_length = 0;
    unsigned long long seed;
    long long first, count;
    int fill_first, tail = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#y#KLLy#py#y#|iy#", &seen, &seen_length, &unseen, &unseen_length, &seed, &first,
                          &count, &starts, &starts_length, &fill_first, &won_worth_bytes, &won_length,
                          &lost_worth_bytes, &lost_length, &tail, &tail_bytes, &tail_length))
        return NULL;
    if (seen_length + unseen_length != 40 || starts_length % START_BYTES || first < 0 || count < 0 ||
        won_length != 25 * 8 || lost_length != 41 * 8 || tail < 0 || tail > 40 ||
        (tail && tail_length != TAIL_BYTES)) {
        PyErr_SetString(PyExc_ValueError, "futures: not the figures of a position's futures");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < unseen_length; i++)
        if (unseen[i] < 1 || unseen[i] > 10) {
            PyErr_SetString(PyExc_ValueError, "futures: a rank is not 1 to 10");
            return NULL;
        }
    Py_ssize_t candidates = starts_length / START_BYTES;
    for (Py_ssize_t c = 0; c < candidates; c++) {
        const uint8_t *start = starts + c * START_BYTES;
        int drawn = start[2];
        uint32_t occupied = start[3] | (uint32_t)start[4] << 8, down = start[5] | (uint32_t)start[6] << 8;
        int bad = start[0] > 2 || start[1] > 24;
        if (start[0] == 0) {
            bad |= drawn < seen_length || drawn >= 40 || (down & ~occupied) || !grid_fits(occupied, drawn, start + 23);
            for (int cell = 0; cell < 16; cell++) bad |= start[7 + cell] > 10 || start[23 + cell] > 40;
        }
        if (bad) {
            PyErr_SetString(PyExc_ValueError, "futures: a candidate is not a position being played");
            return NULL;
        }
    }
    int64_t won_worth[25], lost_worth[41];
    memcpy(won_worth, won_worth_bytes, sizeof won_worth);
    memcpy(lost_worth, lost_worth_bytes, sizeof lost_worth);
    int64_t *totals = calloc((size_t)(candidates ? candidates : 1) * 3, sizeof *totals);
    if (totals == NULL) return PyErr_NoMemory();
    const uint8_t *tail_table = tail ? (const uint8_t *)tail_bytes : NULL;
    Py_BEGIN_ALLOW_THREADS
    uint8_t stock[40], ranks[16], heights[16];
    for (long long i = first; i < first + count; i++) {
        uint64_t key_state = seed + (uint64_t)i * 0x9E3779B97F4A7C15ull;
        shuffled(stock, seen, seen_length, unseen, unseen_length, next_random(&key_state));
        for (Py_ssize_t c = 0; c < candidates; c++) {
            const uint8_t *start = starts + c * START_BYTES;
            int score, placed, drawn = 0;
            uint32_t occupied = 0, down = 0;
            if (start[0] == 0) {
                memcpy(ranks, start + 7, 16), memcpy(heights, start + 23, 16);
                score = play_to_end(stock, start[2], start[3] | (uint32_t)start[4] << 8,
                                    start[5] | (uint32_t)start[6] << 8, ranks, heights, fill_first,
                                    tail ? start[2] + tail : 40, &drawn, &occupied, &down);
                placed = drawn - start[2];
            } else {
                score = start[0] == 2 ? start[1] : -1, placed = 0;
            }
            count_future(totals + 3 * c, score, placed, drawn, occupied, down, won_worth, lost_worth, tail_table);
        }
    }
    Py_END_ALLOW_THREADS
    PyObject *result = PyBytes_FromStringAndSize((const char *)totals, (Py_ssize_t)(candidates * 3 * sizeof *totals));
    free(totals);
    return result;
}

/* -- a reply: one expert's search of a position, all in C (`reply`) ------------------------------------------ */

/* A position: masks, cards drawn, top ranks and heights. */
typedef struct {
    uint32_t occupied, down;
    int drawn;
    uint8_t ranks[16], heights[16];
} Position;

/* `Position` slid one cell (`shift`), the face-down mask with it. */
static void slide(Position *p, int direction) {
    uint32_t unused = 0;
    shift(direction, &p->occupied, &p->down, &unused, p->ranks, p->heights);
}

/* Slid up and left as far as it goes (`engine.cornered`). */
static void cornered(Position *p) {
    if (!p->occupied) return;
    while (!(p->occupied & NEEDS_EMPTY[0])) slide(p, 0);
    while (!(p->occupied & NEEDS_EMPTY[2])) slide(p, 2);
}

/* The face-down mask after a card of `rank` goes to `cell` (the engine's flip rule, `_down_after_placing`). */
static uint32_t placed_down(const Position *p, int cell, int rank) {
    uint32_t bit = 1u << cell, after = p->down & ~bit, up = p->occupied & ~p->down & ~bit;
    uint32_t lines[2] = {ROW_OTHERS[cell], COLUMN_OTHERS[cell]};
    for (int k = 0; k < 2; k++) {
        int higher = 1, lower = 1;
        for (uint32_t others = lines[k] & up; others; others &= others - 1) {
            int other_rank = p->ranks[lowest_bit(others)];
            if (other_rank >= rank) higher = 0;
            if (other_rank <= rank) lower = 0;
        }
        if (higher || lower) after ^= lines[k] & (p->occupied | bit);
    }
    return after;
}

/* Place a card of `rank` on `cell`: 1 won, -1 lost, 0 still being played (`State.apply`'s end of a turn). */
static int place_card(Position *p, int cell, int rank) {
    p->down = placed_down(p, cell, rank);
    p->occupied |= 1u << cell;
    p->ranks[cell] = (uint8_t)rank;
    p->heights[cell]++;
    p->drawn++;
    if (p->occupied == FULL && !p->down) return 1;
    if (bit_count(p->down) > MAX_FACE_DOWN || p->drawn == 40) return -1;
    return 0;
}

/* Python's order of `State.key()` tuples of one stage: the masks, then the ranks, then the heights. */
static int key_order(const Position *a, const Position *b) {
    if (a->occupied != b->occupied) return a->occupied < b->occupied ? -1 : 1;
    if (a->down != b->down) return a->down < b->down ? -1 : 1;
    int c = memcmp(a->ranks, b->ranks, 16);
    return c ? c : memcmp(a->heights, b->heights, 16);
}

static int same_key(const Position *a, const Position *b) { return key_order(a, b) == 0 && a->drawn == b->drawn; }

/* `playout.position_seed`: the seed of a position's futures, from the grid slid to its corner, the rank in hand
 * and how many unseen cards each rank has. */
static uint64_t position_seed(const Position *corner, int hand, const int *unseen_counts) {
    uint8_t bytes[48];
    bytes[0] = (uint8_t)corner->drawn;
    bytes[1] = corner->occupied & 0xFF, bytes[2] = corner->occupied >> 8;
    bytes[3] = corner->down & 0xFF, bytes[4] = corner->down >> 8;
    memcpy(bytes + 5, corner->ranks, 16), memcpy(bytes + 21, corner->heights, 16);
    bytes[37] = (uint8_t)hand;
    for (int rank = 1; rank <= 10; rank++) bytes[37 + rank] = (uint8_t)unseen_counts[rank];
    uint64_t h = 0x243F6A8885A308D3ull;
    for (int i = 0; i < 48; i++) {
        uint64_t state = h ^ bytes[i];
        h = next_random(&state);
    }
    return h;
}

#define MOST_CANDIDATES 64

/* The positions a card of `hand` may lead to from `p` (every placement, and every shift with a placement on the
 * edge it opens: `futures.candidates_of`), each slid to its corner, one for each key, in the order of their keys;
 * `ends`: 0 still being played, 1 lost, 2 won. Returns how many. */
static int positions_after(const Position *p, int hand, Position *groups, int *ends) {
    Position found[MOST_CANDIDATES];
    int found_ends[MOST_CANDIDATES], count = 0;
    for (int pass = 0; pass < 6; pass++) { /* empty cells, tops, then shift up, down, left, right */
        Position frame = *p;
        uint32_t opened = 0xFFFF;
        if (pass >= 2) {
            int direction = pass - 2;
            if (!p->occupied || (p->occupied & NEEDS_EMPTY[direction])) continue;
            slide(&frame, direction);
            opened = 0;
            for (int i = 0; i < 4; i++) opened |= 1u << BESIDE_CELL[direction][i];
        }
        for (int cell = 0; cell < 16; cell++) {
            uint32_t bit = 1u << cell;
            int legal;
            if (pass == 1) legal = (frame.occupied & bit) && frame.heights[cell] < MAX_PILE;
            else legal = !(frame.occupied & bit) && (opened & bit) &&
                         (!frame.occupied || (NEIGHBOURS[cell] & frame.occupied));
            if (!legal) continue;
            Position after = frame;
            int end = place_card(&after, cell, hand);
            cornered(&after);
            int known = 0;
            for (int g = 0; g < count && !known; g++) known = same_key(&found[g], &after);
            if (!known && count < MOST_CANDIDATES) {
                found[count] = after, found_ends[count] = end > 0 ? 2 : end < 0 ? 1 : 0;
                count++;
            }
        }
        if (!p->occupied) break; /* an empty grid: sixteen cells alike, no shift */
    }
    /* the keys' order; insertion keeps equal keys (there are none) as they came */
    for (int i = 0; i < count; i++) {
        int j = i;
        Position moving = found[i];
        int moving_end = found_ends[i];
        while (j > 0 && key_order(&found[j - 1], &moving) > 0) {
            found[j] = found[j - 1], found_ends[j] = found_ends[j - 1];
            j--;
        }
        found[j] = moving, found_ends[j] = moving_end;
    }
    memcpy(groups, found, count * sizeof *groups);
    memcpy(ends, found_ends, count * sizeof *ends);
    return count;
}

/* What a search makes of a position: its best move's mean worth, share of futures won and score (a loss 0). */
typedef struct {
    double value, won, scored;
} Figures;

typedef struct {
    long long playouts;
    int fill_first, second;
    long long second_playouts;
    const int64_t *won_worth, *lost_worth;
    int tail;                  /* the cards a future is played before the tail table's figures count (0: to its end) */
    const uint8_t *tail_table; /* NULL without a tail */
} SearchSettings;

static Figures search(const Position *p, int hand, const uint8_t *unseen, int unseen_length,
                      const SearchSettings *settings);

/* The second ply of `search` for the position `after` (not over): for each rank to come, weighted by how many
 * unseen cards have it, what a search of one ply at `second_playouts` makes of `after` with a card of that rank
 * in hand, its unseen cards in rank order (`ExpertPlayer._over_next_card`). */
static Figures over_next_card(const Position *after, const int *counts, int unseen_length,
                              const SearchSettings *settings) {
    SearchSettings reply_settings = {settings->second_playouts, settings->fill_first, 0, 0, settings->won_worth,
                                     settings->lost_worth, settings->tail, settings->tail_table};
    Figures looked = {0.0, 0.0, 0.0};
    uint8_t rest[40];
    for (int rank = 1; rank <= 10; rank++) {
        if (!counts[rank]) continue;
        int length = 0, skipped = 0;
        for (int other = 1; other <= 10; other++)
            for (int k = 0; k < counts[other]; k++) {
                if (other == rank && !skipped) {
                    skipped = 1;
                    continue;
                }
                rest[length++] = (uint8_t)other;
            }
        Figures reply = search(after, rank, rest, length, &reply_settings);
        double share = (double)counts[rank] / (double)unseen_length;
        looked.value += share * reply.value, looked.won += share * reply.won, looked.scored += share * reply.scored;
    }
    return looked;
}

/* The expert's search of `p` with a card of rank `hand` in hand (`unseen`: the ranks not seen, in their order), as
 * `ExpertPlayer.evaluate` makes it: successive halving over the positions the moves lead to, then, when
 * `second` is 2 or more, its best `second` looked at again over the next card; the best one's figures. */
static Figures search(const Position *p, int hand, const uint8_t *unseen, int unseen_length,
                      const SearchSettings *settings) {
    Position groups[MOST_CANDIDATES], corner = *p;
    int ends[MOST_CANDIDATES], counts[11] = {0}, count;
    int64_t totals[MOST_CANDIDATES][3] = {{0}}; /* futures won, their scores, their worth (`count_future`) */
    int64_t samples[MOST_CANDIDATES] = {0};
    double value[MOST_CANDIDATES] = {0};
    int alive[MOST_CANDIDATES], order[MOST_CANDIDATES];
    for (int i = 0; i < unseen_length; i++) counts[unseen[i]]++;
    cornered(&corner);
    uint64_t seed = position_seed(&corner, hand, counts);
    count = positions_after(p, hand, groups, ends);
    int rounds = 0;
    while ((1 << rounds) < count) rounds++; /* (count - 1).bit_length() */
    if (rounds < 1) rounds = 1;
    long long playouts = settings->playouts;
    double per_round = count > 1 ? (double)playouts / rounds : (double)(playouts < 1000 ? playouts : 1000);
    int living = count;
    for (int g = 0; g < count; g++) alive[g] = g;
    long long dealt = 0;
    uint8_t seen[40] = {0}, stock[40], ranks[16], heights[16];
    for (int round = 0; round < rounds; round++) {
        long long futures = (long long)(per_round / living);
        if (futures < 1) futures = 1;
        for (long long f = 0; f < futures; f++, dealt++) {
            uint64_t key_state = seed + (uint64_t)dealt * 0x9E3779B97F4A7C15ull;
            shuffled(stock, seen, p->drawn + 1, unseen, unseen_length, next_random(&key_state));
            for (int a = 0; a < living; a++) {
                int g = alive[a], score, placed = 0, end_drawn = 0;
                uint32_t end_occupied = 0, end_down = 0;
                if (ends[g] == 0) {
                    memcpy(ranks, groups[g].ranks, 16), memcpy(heights, groups[g].heights, 16);
                    int stop_at = settings->tail ? groups[g].drawn + settings->tail : 40;
                    score = play_to_end(stock, groups[g].drawn, groups[g].occupied, groups[g].down, ranks, heights,
                                        settings->fill_first, stop_at, &end_drawn, &end_occupied, &end_down);
                    placed = end_drawn - groups[g].drawn;
                } else {
                    score = ends[g] == 2 ? 40 - groups[g].drawn : -1;
                }
                count_future(totals[g], score, placed, end_drawn, end_occupied, end_down, settings->won_worth,
                             settings->lost_worth, settings->tail_table);
                samples[g]++;
            }
        }
        for (int g = 0; g < count; g++)
            value[g] = samples[g] ? (double)totals[g][2] / (double)samples[g] / 1e6 : 0.0;
        for (int i = 1; i < living; i++) { /* a stable sort by worth, the best first */
            int moving = alive[i], j = i;
            while (j > 0 && value[alive[j - 1]] < value[moving]) alive[j] = alive[j - 1], j--;
            alive[j] = moving;
        }
        living = (living + 1) / 2;
        if (living < 1) living = 1;
        if (living == 1) break;
    }
    for (int g = 0; g < count; g++) order[g] = g;
    for (int i = 1; i < count; i++) { /* by futures, then worth, stable: the winner of the halving first */
        int moving = order[i], j = i;
        while (j > 0 && (samples[order[j - 1]] < samples[moving] ||
                         (samples[order[j - 1]] == samples[moving] && value[order[j - 1]] < value[moving])))
            order[j] = order[j - 1], j--;
        order[j] = moving;
    }
    if (alive[0] != order[0]) { /* the halving's winner leads */
        int j = 0;
        while (order[j] != alive[0]) j++;
        for (; j > 0; j--) order[j] = order[j - 1];
        order[0] = alive[0];
    }
    Figures figures[MOST_CANDIDATES];
    double unit = settings->tail_table ? UNITS : 1.0;
    for (int g = 0; g < count; g++) {
        figures[g].value = value[g];
        figures[g].won = samples[g] ? (double)totals[g][0] / (double)samples[g] / unit : 0.0;
        figures[g].scored = samples[g] ? (double)totals[g][1] / (double)samples[g] / unit : 0.0;
    }
    int looked = settings->second > 1 && count > 1 ? (settings->second < count ? settings->second : count) : 1;
    for (int i = 0; i < looked && looked > 1; i++)
        if (ends[order[i]] == 0) figures[order[i]] = over_next_card(&groups[order[i]], counts, unseen_length, settings);
    for (int i = 1; i < looked; i++) { /* the looked-at moves by their new worth, stable */
        int moving = order[i], j = i;
        while (j > 0 && figures[order[j - 1]].value < figures[moving].value) order[j] = order[j - 1], j--;
        order[j] = moving;
    }
    return figures[order[0]];
}

/* reply(occupied, down, drawn, ranks, heights, hand, unseen, playouts, fill_first, won_worth, lost_worth, second,
 *       second_playouts) -> (value, won, scored)
 * The expert's search (`search`) of the position with a card of rank `hand` in hand (`unseen`: the ranks not
 * seen, in their order) at a budget of `playouts`, its best `second` moves looked at again over the next card at
 * `second_playouts` (`second` below 2: not at all), as `ExpertPlayer.evaluate` makes it: its best move's mean
 * worth, share of futures won and score (a loss counting 0). */
static PyObject *reply(PyObject *self, PyObject *args) {
    const uint8_t *ranks_in, *heights_in, *unseen;
    const char *won_bytes, *lost_bytes;
    Py_ssize_t ranks_length, heights_length, unseen_length, won_length, lost_length;
    const char *tail_bytes = NULL;
    Py_ssize_t tail_length = 0;
    int occupied_in, down_in, drawn, hand, fill_first, second, tail = 0;
    long long playouts, second_playouts;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiiy#y#iy#Lpy#y#iL|iy#", &occupied_in, &down_in, &drawn, &ranks_in, &ranks_length,
                          &heights_in, &heights_length, &hand, &unseen, &unseen_length, &playouts, &fill_first,
                          &won_bytes, &won_length, &lost_bytes, &lost_length, &second, &second_playouts, &tail,
                          &tail_bytes, &tail_length))
        return NULL;
    int bad = ranks_length != 16 || heights_length != 16 || occupied_in < 0 || occupied_in > (int)FULL ||
              down_in < 0 || (down_in & ~occupied_in) || hand < 1 || hand > 10 || drawn < 0 ||
              drawn + 1 + unseen_length != 40 || playouts < 1 || won_length != 25 * 8 || lost_length != 41 * 8 ||
              second < 0 || second_playouts < 1 || tail < 0 || tail > 40 ||
              (tail && tail_length != TAIL_BYTES);
    for (int cell = 0; cell < 16 && !bad; cell++) bad = ranks_in[cell] > 10 || heights_in[cell] > 40;
    for (Py_ssize_t i = 0; i < unseen_length && !bad; i++) bad = unseen[i] < 1 || unseen[i] > 10;
    bad = bad || !grid_fits((uint32_t)occupied_in, drawn, heights_in);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "reply: not a position being played");
        return NULL;
    }
    int64_t won_worth[25], lost_worth[41];
    memcpy(won_worth, won_bytes, sizeof won_worth), memcpy(lost_worth, lost_bytes, sizeof lost_worth);
    Position p = {(uint32_t)occupied_in, (uint32_t)down_in, drawn, {0}, {0}};
    memcpy(p.ranks, ranks_in, 16), memcpy(p.heights, heights_in, 16);
    SearchSettings settings = {playouts,   fill_first, second, second_playouts, won_worth, lost_worth,
                               tail, tail ? (const uint8_t *)tail_bytes : NULL};
    Figures best;
    Py_BEGIN_ALLOW_THREADS
    best = search(&p, hand, unseen, (int)unseen_length, &settings);
    Py_END_ALLOW_THREADS
    return Py_BuildValue("(ddd)", best.value, best.won, best.scored);
}

/* -- the solver's level search (`solver._search_level`), in C: `search_level` --------------------------------- */

#ifdef _WIN32
#define WIN32_LEAN_AND_MEAN
#include <windows.h>
static double seconds_now(void) {
    LARGE_INTEGER count, frequency;
    QueryPerformanceCounter(&count), QueryPerformanceFrequency(&frequency);
    return (double)count.QuadPart / (double)frequency.QuadPart;
}
#else
#include <time.h>
static double seconds_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec * 1e-9;
}
#endif

#define TABLE_SIZE 1000000 /* solver.TABLE_SIZE: the most positions a level remembers before it forgets them all */
#define CROSS_OF(cell) (ROW_OTHERS[cell] | COLUMN_OTHERS[cell])

/* A position's key (`State.key()` less what follows from it: the cells occupied and the cards drawn are the
 * heights'): the face-down mask, then 4 bits of top rank and 3 of height a cell. Never all zero (the table's
 * empty slot): a searched position holds a card. */
typedef struct {
    uint64_t high, low;
} LevelKey;

typedef struct {
    const uint8_t *stock;
    int stacks;
    long long limit, used; /* limit < 0: none */
    double deadline;       /* < 0: none */
    int stopped;           /* 0 still searching, 1 the node limit, 2 the time */
    LevelKey *table;
    size_t mask, count;
    int empty_grid_seen;
    uint8_t line[40];
    int depth;
    PyThreadState *released; /* the interpreter's lock, let go while searching */
} LevelSearch;

static LevelKey level_key(const Position *p) {
    LevelKey key = {p->down, 0};
    for (int cell = 0; cell < 16; cell++) {
        key.low = key.low << 4 | p->ranks[cell];
        key.high = key.high << 3 | p->heights[cell];
    }
    return key;
}

/* Where `key`'s search of the table starts (linear probing from there). */
static size_t first_slot(const LevelSearch *s, LevelKey key) {
    return (size_t)((key.low * 0x9E3779B97F4A7C15ull) ^ (key.high * 0xC2B2AE3D27D4EB4Full)) & s->mask;
}

static void forget_all(LevelSearch *s) {
    memset(s->table, 0, (s->mask + 1) * sizeof *s->table);
    s->count = 0, s->empty_grid_seen = 0;
}

/* 1 when `key` was seen (the table as Python's set: emptied when it holds TABLE_SIZE), else 0 and it is kept. */
static int seen_before(LevelSearch *s, LevelKey key) {
    int empty_grid = !(key.high | key.low);
    size_t slot = first_slot(s, key);
    if (empty_grid) {
        if (s->empty_grid_seen) return 1;
    } else {
        for (; s->table[slot].high | s->table[slot].low; slot = (slot + 1) & s->mask)
            if (s->table[slot].high == key.high && s->table[slot].low == key.low) return 1;
    }
    if (s->count >= TABLE_SIZE) forget_all(s), slot = first_slot(s, key);
    if (empty_grid)
        s->empty_grid_seen = 1;
    else
        s->table[slot] = key;
    s->count++;
    return 0;
}

/* `solver._stuck_face_down`: with no card left to stack, a face-down top with no empty cell in its lines. */
static int stuck_face_down(const Position *p) {
    uint32_t empty = ~p->occupied & FULL;
    for (uint32_t down = p->down; down; down &= down - 1)
        if (!(CROSS_OF(lowest_bit(down)) & empty)) return 1;
    return 0;
}

/* Ctrl-C heard: the lock taken back for a moment, every 65,536 positions (some 30 ms), so a signal's handler
 * runs (PyErr_CheckSignals: the main thread's alone) and KeyboardInterrupt stops the search at once. */
static int interrupted(LevelSearch *s) {
    PyEval_RestoreThread(s->released);
    int failed = PyErr_CheckSignals() < 0;
    s->released = PyEval_SaveThread();
    return failed;
}

/* `search` of `solver._search_level`, node for node: 1 a win (its moves in s->line[0..depth)), 0 none, -1 stopped. */
static int level_search(LevelSearch *s, const Position *p) {
    s->used++;
    if (s->limit >= 0 && s->used >= s->limit) return s->stopped = 1, -1;
    if (s->deadline >= 0 && !(s->used & 255) && seconds_now() > s->deadline) return s->stopped = 2, -1;
    if (!(s->used & 65535) && interrupted(s)) return s->stopped = 3, -1;
    if (seen_before(s, level_key(p))) return 0;
    int may_stack = p->drawn - bit_count(p->occupied) < s->stacks;
    if (!may_stack && stuck_face_down(p)) return 0;
    int rank = s->stock[p->drawn];
    /* The placements, as `legal_placements` gives them, ordered by (face down after, move code). */
    int orders[32], count = 0;
    for (int cell = 0; cell < 16; cell++) {
        int move;
        if (!(p->occupied >> cell & 1)) {
            if (p->occupied && !(NEIGHBOURS[cell] & p->occupied)) continue;
            move = cell;
        } else {
            if (!may_stack || p->heights[cell] >= MAX_PILE) continue;
            move = 16 + cell;
        }
        int order = bit_count(placed_down(p, cell, rank)) << 5 | move;
        int at = count++;
        while (at > 0 && orders[at - 1] > order) orders[at] = orders[at - 1], at--;
        orders[at] = order;
    }
    for (int i = 0; i < count; i++) {
        if (orders[i] >> 5 > MAX_FACE_DOWN) break;
        Position child = *p;
        int cell = orders[i] & 15;
        int status = place_card(&child, cell, rank);
        s->line[s->depth++] = (uint8_t)(orders[i] & 31);
        if (status == 1) return 1;
        if (status == 0) {
            int found = level_search(s, &child);
            if (found) return found;
        }
        s->depth--;
    }
    return 0;
}

/* search_level(stock, occupied, down, drawn, ranks, heights, stacks, limit, seconds) -> (moves or None, nodes,
 * stopped): `solver._search_level`'s depth-first search for a win stacking at most `stacks` cards, node for node
 * (`limit`: the nodes it may visit, -1 for no limit; `seconds`: the time it may take, -1 for no limit). `moves`
 * are the winning line's move codes; `stopped` is 0 (searched to the end), 1 (the limit) or 2 (the time). A signal
 * heard (Ctrl-C) raises its exception, as Python code would. */
static PyObject *search_level(PyObject *self, PyObject *args) {
    const uint8_t *stock, *ranks_in, *heights_in;
    Py_ssize_t stock_length, ranks_length, heights_length;
    int occupied_in, down_in, drawn, stacks;
    long long limit;
    double seconds;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#iiiy#y#iLd", &stock, &stock_length, &occupied_in, &down_in, &drawn, &ranks_in,
                          &ranks_length, &heights_in, &heights_length, &stacks, &limit, &seconds))
        return NULL;
    int bad = stock_length != 40 || ranks_length != 16 || heights_length != 16 || drawn < 0 || drawn >= 40 ||
              occupied_in < 0 || occupied_in > (int)FULL || down_in < 0 || (down_in & ~occupied_in);
    for (int i = 0; i < 40 && !bad; i++) bad = stock[i] < 1 || stock[i] > 10;
    for (int cell = 0; cell < 16 && !bad; cell++)
        bad = ranks_in[cell] > 10 || heights_in[cell] > MAX_PILE || !heights_in[cell] != !(occupied_in >> cell & 1);
    bad = bad || !grid_fits((uint32_t)occupied_in, drawn, heights_in);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "search_level: not a position being played");
        return NULL;
    }
    Position p = {(uint32_t)occupied_in, (uint32_t)down_in, drawn, {0}, {0}};
    memcpy(p.ranks, ranks_in, 16), memcpy(p.heights, heights_in, 16);
    /* Twice the positions it can visit, at least 2^10 slots, never more than twice TABLE_SIZE. */
    long long wanted = limit >= 0 && limit < TABLE_SIZE ? limit : TABLE_SIZE;
    size_t slots = 1024;
    while ((long long)slots < 2 * wanted) slots <<= 1;
    LevelSearch s = {stock, stacks, limit, 0, -1.0, 0, NULL, slots - 1, 0, 0, {0}, 0, NULL};
    s.table = calloc(slots, sizeof *s.table);
    if (!s.table) return PyErr_NoMemory();
    s.released = PyEval_SaveThread();
    if (seconds >= 0) s.deadline = seconds_now() + seconds;
    int found = level_search(&s, &p);
    PyEval_RestoreThread(s.released);
    free(s.table);
    if (s.stopped == 3) return NULL; /* the signal's exception, KeyboardInterrupt most often, is set */
    if (found == 1)
        return Py_BuildValue("(y#Li)", (const char *)s.line, (Py_ssize_t)s.depth, s.used, 0);
    return Py_BuildValue("(OLi)", Py_None, s.used, s.stopped);
}

static PyMethodDef methods[] = {
    {"deal", deal, METH_VARARGS, "deal(seen, unseen, key) -> seen + unseen in an order drawn from key."},
    {"finish", finish, METH_VARARGS,
     "finish(stock, drawn, occupied, down, ranks, heights, fill_first=False, stop_at=40) -> (score, drawn, occupied, "
     "down): the greedy playout (score -2: stopped when stop_at cards were drawn)."},
    {"futures", futures, METH_VARARGS,
     "futures(seen, unseen, seed, first, count, starts, fill_first, won_worth, lost_worth, tail=0, tail_table=b'') -> "
     "totals: a position's futures played by its candidates."},
    {"reply", reply, METH_VARARGS,
     "reply(occupied, down, drawn, ranks, heights, hand, unseen, playouts, fill_first, won_worth, lost_worth, second, "
     "second_playouts, tail=0, tail_table=b'') -> (value, won, scored): the expert's best move's figures."},
    {"search_level", search_level, METH_VARARGS,
     "search_level(stock, occupied, down, drawn, ranks, heights, stacks, limit, seconds) -> (moves or None, nodes, "
     "stopped): the solver's depth-first search of one level."},
    {"safe_ranks", safe_ranks, METH_VARARGS,
     "safe_ranks(occupied, down, ranks, heights) -> mask: the ranks (bits 1-10) with a placement leaving at most four "
     "face down."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout", "The greedy playout in C (playout.py).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__playout(void) { return PyModule_Create(&module); }
