/* The greedy playout of playout.py (`_finish_python`), move for move, in C: the inner loop of every
 * simulation, some fifty times faster than the Python. No rule lives here: the tests hold the two
 * versions to the same results on random positions, and playout.py uses this one when it was built.
 *
 * deal(seen, unseen, key) -> stock: `seen` then `unseen` in an order drawn from `key` (`_deal_python`).
 *
 * finish(stock, drawn, occupied, down, ranks, heights, fill_first=False) -> (score, drawn, occupied, down)
 *   stock: 40 bytes, the rank (1-10) of every card of the deck in drawing order;
 *   ranks, heights: 16 bytes each, the top rank (0 when empty) and height of every cell;
 *   the position must be one still being played (`drawn` < 40);
 *   fill_first: the best empty cell whenever it leaves at most four face down (`_greedy_pick`).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
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

/* `_greedy_pick`: returns the face-down count after, sets the cell, the mask after and the direction. */
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

static PyObject *finish(PyObject *self, PyObject *args) {
    const uint8_t *stock, *ranks_in, *heights_in;
    Py_ssize_t stock_length, ranks_length, heights_length;
    int drawn, occupied_in, down_in, fill_first = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#iiiy#y#|p", &stock, &stock_length, &drawn, &occupied_in, &down_in, &ranks_in,
                          &ranks_length, &heights_in, &heights_length, &fill_first))
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
    uint32_t occupied = (uint32_t)occupied_in, down = (uint32_t)down_in;
    uint64_t lines[8];
    count_lines(occupied & ~down, ranks, lines);
    for (;;) {
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
        if (occupied == FULL && !down) return Py_BuildValue("(iiII)", 40 - drawn, drawn, occupied, down);
        if (fewest > MAX_FACE_DOWN || drawn == 40) return Py_BuildValue("(iiII)", -1, drawn, occupied, down);
    }
}

/* safe_ranks(occupied, down, ranks, heights) -> mask: bit r (1-10) set when a card of rank r has a placement
 * (beyond an edge included, the layout shifted) that leaves at most four face down (`_safe_ranks_python`). */
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

/* splitmix64: the generator `_deal_python` runs too, so that both versions deal the same futures. */
static inline uint64_t next_random(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static PyObject *deal(PyObject *self, PyObject *args) {
    const char *seen, *unseen;
    Py_ssize_t seen_length, unseen_length;
    unsigned long long key;
    (void)self;
    if (!PyArg_ParseTuple(args, "y#y#K", &seen, &seen_length, &unseen, &unseen_length, &key)) return NULL;
    if (seen_length + unseen_length > 40) {
        PyErr_SetString(PyExc_ValueError, "deal: more than 40 cards");
        return NULL;
    }
    char stock[40];
    memcpy(stock, seen, seen_length);
    char *order = stock + seen_length;
    memcpy(order, unseen, unseen_length);
    uint64_t state = key;
    for (Py_ssize_t i = unseen_length - 1; i > 0; i--) {
        Py_ssize_t j = (Py_ssize_t)(((next_random(&state) >> 32) * (uint64_t)(i + 1)) >> 32);
        char card = order[i];
        order[i] = order[j], order[j] = card;
    }
    return PyBytes_FromStringAndSize(stock, seen_length + unseen_length);
}

static PyMethodDef methods[] = {
    {"deal", deal, METH_VARARGS, "deal(seen, unseen, key) -> seen + unseen in an order drawn from key."},
    {"finish", finish, METH_VARARGS,
     "finish(stock, drawn, occupied, down, ranks, heights, fill_first=False) -> (score, drawn, occupied, down): the "
     "greedy playout."},
    {"safe_ranks", safe_ranks, METH_VARARGS,
     "safe_ranks(occupied, down, ranks, heights) -> mask: the ranks (bits 1-10) with a placement leaving at most four "
     "face down."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_playout", "The greedy playout in C (playout.py).",
                                    -1, methods};

PyMODINIT_FUNC PyInit__playout(void) { return PyModule_Create(&module); }
