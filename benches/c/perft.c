/*
 * A straightforward Toguz Kumalak perft in C, for comparison with tuzdik's Rust perft.
 *
 * Rules as in RULES.md (togyz, standard switches): 2x9 holes, 9 stones each, sowing one stone
 * at a time counter-clockwise (the first of several stones back into the origin, a single
 * stone into the next hole, laps do not skip the origin), stones falling into a tuzdik go to
 * its owner's kazan, even landing on the opponent's side captures, landing on 3 makes a tuzdik
 * (one per player, never on hole 9, never opposite-equal to the opponent's), a kazan of 82+
 * or an empty row to move ends the game.
 *
 * Plain on purpose: an array board copied at every node, one stone per loop iteration, and
 * only one shortcut, bulk counting at depth 1 (the number of legal moves).
 *
 * Build: gcc -O2 -o perft benches/c/perft.c
 * Run:   ./perft 9        (prints the count and the time)
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define N 9
#define RING (2 * N)
#define WIN 82
#define NONE (-1)

typedef struct {
    int holes[RING];  /* South's holes 1..9 at 0..8, North's at 9..17 */
    int kazan[2];
    int tuzdik[2];    /* ring index of the tuzdik each player owns, or NONE */
    int side;         /* 0 South, 1 North */
} Board;

static int game_over(const Board *b) {
    if (b->kazan[0] >= WIN || b->kazan[1] >= WIN)
        return 1;
    for (int h = 0; h < N; h++)
        if (b->holes[b->side * N + h] > 0)
            return 0;
    return 1;
}

static int legal_count(const Board *b) {
    if (game_over(b))
        return 0;
    int count = 0;
    for (int h = 0; h < N; h++)
        if (b->holes[b->side * N + h] > 0)
            count++;
    return count;
}

/* Plays hole h (0-based, the mover's numbering); the hole must hold stones. */
static void play(Board *b, int h) {
    int me = b->side, them = 1 - me;
    int pos = me * N + h;
    int stones = b->holes[pos];
    b->holes[pos] = 0;
    if (stones == 1) {
        pos = (pos + 1) % RING;
        b->holes[pos]++;
    } else {
        b->holes[pos]++;
        for (int i = 1; i < stones; i++) {
            pos = (pos + 1) % RING;
            b->holes[pos]++;
        }
    }
    /* Stones sown into a tuzdik belong to its owner. */
    for (int p = 0; p < 2; p++) {
        int t = b->tuzdik[p];
        if (t != NONE && b->holes[t] > 0) {
            b->kazan[p] += b->holes[t];
            b->holes[t] = 0;
        }
    }
    /* Captures happen on the opponent's side only, never in a tuzdik. */
    if (pos / N == them && pos != b->tuzdik[me]) {
        int count = b->holes[pos];
        if (count % 2 == 0) {
            b->kazan[me] += count;
            b->holes[pos] = 0;
        } else if (count == 3) {
            int hole = pos % N; /* 0-based in the opponent's numbering */
            int theirs = b->tuzdik[them];
            if (b->tuzdik[me] == NONE && hole != N - 1 && (theirs == NONE || theirs % N != hole)) {
                b->tuzdik[me] = pos;
                b->kazan[me] += 3;
                b->holes[pos] = 0;
            }
        }
    }
    b->side = them;
}

static unsigned long long perft(const Board *b, int depth) {
    if (depth == 0)
        return 1;
    if (depth == 1)
        return (unsigned long long)legal_count(b);
    if (game_over(b))
        return 0;
    unsigned long long total = 0;
    for (int h = 0; h < N; h++) {
        if (b->holes[b->side * N + h] == 0)
            continue;
        Board child = *b;
        play(&child, h);
        total += perft(&child, depth - 1);
    }
    return total;
}

int main(int argc, char **argv) {
    int depth = argc > 1 ? atoi(argv[1]) : 9;
    Board start;
    for (int i = 0; i < RING; i++)
        start.holes[i] = 9;
    start.kazan[0] = start.kazan[1] = 0;
    start.tuzdik[0] = start.tuzdik[1] = NONE;
    start.side = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    unsigned long long n = perft(&start, depth);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
    printf("perft %d = %llu in %.3f s (%.1f M leaves/s)\n", depth, n, seconds, n / seconds / 1e6);
    return 0;
}
