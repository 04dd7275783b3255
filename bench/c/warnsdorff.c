/* Warnsdorff's rule with backtracking: the C reference of heuristics/tour_kernels.py (issue 40).

   The same rule: candidates ranked by (onward moves, tie key, jump priority), smallest first;
   the same tie keys (first, marginality, roth, centre, random = a splitmix64 hash of seed and
   square); the same node budget (0 = stop at the first dead end). Full plain boards.

   usage: warnsdorff ROWS COLS CLOSED START_ROW START_COL ORDER TIE SEED BUDGET REPEATS [OUT]
     ORDER: 8 digits naming the moves (-2,-1) (-2,1) (-1,-2) (-1,2) (1,-2) (1,2) (2,-1) (2,1)
     TIE: 0 first, 1 marginality, 2 roth, 3 centre, 4 random
   prints "status length nodes backtracks best_ms" (the fastest of REPEATS solves, each timed in
   CPU time of the process from the board's size to the tour in memory) and writes the tour
   (int32 flat squares) to OUT. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int DR[8] = {-2, -2, -1, -1, 1, 1, 2, 2};
static const int DC[8] = {-1, 1, -2, 2, -2, 2, -1, 1};

static int64_t tie_key(int64_t u, int64_t rows, int64_t cols, int tie, uint64_t seed) {
    if (tie == 0) return 0;
    if (tie == 4) {
        uint64_t z = (seed << 32) + (uint64_t)u + 0x9E3779B97F4A7C15ULL;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
        return (int64_t)((z ^ (z >> 31)) >> 33);
    }
    int64_t r = llabs(2 * (u / cols) - (rows - 1)), c = llabs(2 * (u % cols) - (cols - 1));
    if (tie == 1) return -(r + c);
    return tie == 2 ? -(r * r + c * c) : r * r + c * c;
}

/* returns 1 found, 0 exhausted, -1 stopped; the tour in path[0..*length) */
static int solve(int rows, int cols, int closed, int start, const int *dr, const int *dc, int tie,
                 uint64_t seed, int64_t budget, int32_t *path, int *length, int64_t *nodes_out,
                 int64_t *backtracks_out) {
    int n = rows * cols, total = n, status;
    int32_t *moves = malloc(sizeof(int32_t) * 8 * (size_t)n);
    int32_t *degree = calloc((size_t)n, sizeof(int32_t));
    int64_t *key = malloc(sizeof(int64_t) * (size_t)n);
    uint8_t *visited = calloc((size_t)n, 1);
    int32_t *candidates = malloc(sizeof(int32_t) * 8 * (size_t)(budget > 0 ? total : 1));
    int32_t *count = calloc((size_t)total, sizeof(int32_t));
    int32_t *pointer = calloc((size_t)total, sizeof(int32_t));
    for (int u = 0; u < n; u++) {
        int r = u / cols, c = u - r * cols;
        key[u] = tie_key(u, rows, cols, tie, seed);
        for (int k = 0; k < 8; k++) {
            int nr = r + dr[k], nc = c + dc[k];
            if (nr >= 0 && nr < rows && nc >= 0 && nc < cols) {
                moves[8 * u + k] = nr * cols + nc;
                degree[u]++;
            } else {
                moves[8 * u + k] = -1;
            }
        }
    }
    int64_t nodes = 1, backtracks = 0;
    int depth = 0, fresh = 1;
    path[0] = start;
    visited[start] = 1;
    for (int k = 0; k < 8; k++)
        if (moves[8 * start + k] >= 0) degree[moves[8 * start + k]]--;
    for (;;) {
        int u = path[depth], row = budget > 0 ? depth : 0;
        int32_t *cand = candidates + 8 * (size_t)row;
        if (depth == total - 1) {
            int ok = 1;
            if (closed) {
                ok = 0;
                for (int k = 0; k < 8; k++)
                    if (total > 2 && moves[8 * u + k] == start) ok = 1;
            }
            if (ok) { status = 1; *length = depth + 1; break; }
            fresh = 0;
        } else if (fresh) {
            int c = 0;
            if (closed && degree[start] == 0) c = -1;
            for (int k = 0; k < 8 && c >= 0; k++) {
                int v = moves[8 * u + k];
                if (v < 0 || visited[v]) continue;
                int j = c;
                while (j > 0) {
                    int w = cand[j - 1];
                    if (degree[w] > degree[v] || (degree[w] == degree[v] && key[w] > key[v])) {
                        cand[j] = w;
                        j--;
                    } else {
                        break;
                    }
                }
                cand[j] = v;
                c++;
            }
            count[depth] = c > 0 ? c : 0;
            pointer[depth] = 0;
        }
        if (depth < total - 1 && pointer[depth] < count[depth] && (budget > 0 || pointer[depth] == 0)) {
            int v = cand[pointer[depth]++];
            nodes++;
            if (budget > 0 && nodes > budget) { status = -1; *length = depth + 1; break; }
            path[++depth] = v;
            visited[v] = 1;
            for (int k = 0; k < 8; k++)
                if (moves[8 * v + k] >= 0) degree[moves[8 * v + k]]--;
            fresh = 1;
            continue;
        }
        if (budget == 0) { status = -1; *length = depth + 1; break; }
        if (depth == 0) { status = 0; *length = 1; break; }
        visited[u] = 0;
        for (int k = 0; k < 8; k++)
            if (moves[8 * u + k] >= 0) degree[moves[8 * u + k]]++;
        depth--;
        backtracks++;
        fresh = 0;
    }
    *nodes_out = nodes;
    *backtracks_out = backtracks;
    free(moves); free(degree); free(key); free(visited); free(candidates); free(count); free(pointer);
    return status;
}

int main(int argc, char **argv) {
    if (argc < 11 || strlen(argv[6]) != 8) {
        fprintf(stderr, "usage: %s ROWS COLS CLOSED START_ROW START_COL ORDER TIE SEED BUDGET REPEATS [OUT]\n", argv[0]);
        return 2;
    }
    int rows = atoi(argv[1]), cols = atoi(argv[2]), closed = atoi(argv[3]);
    int start = atoi(argv[4]) * cols + atoi(argv[5]), tie = atoi(argv[7]), repeats = atoi(argv[10]);
    uint64_t seed = strtoull(argv[8], NULL, 10);
    int64_t budget = strtoll(argv[9], NULL, 10);
    int dr[8], dc[8];
    for (int k = 0; k < 8; k++) {
        int m = argv[6][k] - '1';
        dr[k] = DR[m];
        dc[k] = DC[m];
    }
    int32_t *path = malloc(sizeof(int32_t) * (size_t)rows * (size_t)cols);
    double best = 1e300;
    int status = 0, length = 0;
    int64_t nodes = 0, backtracks = 0;
    for (int i = 0; i < repeats; i++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
        status = solve(rows, cols, closed, start, dr, dc, tie, seed, budget, path, &length, &nodes, &backtracks);
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
        double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
        if (ms < best) best = ms;
    }
    printf("%d %d %lld %lld %.3f\n", status, length, (long long)nodes, (long long)backtracks, best);
    if (argc > 11) {
        FILE *out = fopen(argv[11], "wb");
        if (!out || fwrite(path, sizeof(int32_t), (size_t)length, out) != (size_t)length) return 1;
        fclose(out);
    }
    free(path);
    return 0;
}
