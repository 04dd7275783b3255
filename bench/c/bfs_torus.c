/* Breadth-first search of the toroidal knight graph: the C reference of the lost knight's
   kernel (algorithms/path_kernels.py bfs_torus; issue 40). The same search: a queue of flat
   squares, the eight jumps wrapping modulo the board, stop as soon as S is labelled.

   usage: bfs_torus FILE REPEATS
     FILE: rows of '.', 'x' (blocked), 'C' (start), 'S' (goal), as ../shared/data/lost-knight
   prints "moves expanded best_ms" (the fastest of REPEATS searches, each timed in CPU time of
   the process from the labels' allocation to S labelled; reading the file is not timed). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const int DR[8] = {-2, -2, -1, -1, 1, 1, 2, 2};
static const int DC[8] = {-1, 1, -2, 2, -2, 2, -1, 1};

static int64_t bfs(const uint8_t *blocked, int64_t rows, int64_t cols, int64_t start, int64_t goal,
                   int32_t *dist) {
    int64_t n = rows * cols, head = 0, tail = 1;
    int32_t *queue = malloc(sizeof(int32_t) * (size_t)n);
    for (int64_t i = 0; i < n; i++) dist[i] = -1;
    queue[0] = (int32_t)start;
    dist[start] = 0;
    while (head < tail && start != goal) {
        int64_t u = queue[head++], r = u / cols, c = u - r * cols;
        for (int k = 0; k < 8; k++) {
            int64_t v = ((r + DR[k] + rows) % rows) * cols + (c + DC[k] + cols) % cols;
            if (dist[v] < 0 && !blocked[v]) {
                dist[v] = dist[u] + 1;
                if (v == goal) { free(queue); return head; }
                queue[tail++] = (int32_t)v;
            }
        }
    }
    free(queue);
    return head;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: bfs_torus FILE REPEATS\n"); return 2; }
    FILE *in = fopen(argv[1], "rb");
    if (!in) { perror(argv[1]); return 2; }
    fseek(in, 0, SEEK_END);
    long size = ftell(in);
    fseek(in, 0, SEEK_SET);
    char *text = malloc((size_t)size + 1);
    if (fread(text, 1, (size_t)size, in) != (size_t)size) return 2;
    fclose(in);
    uint8_t *blocked = malloc((size_t)size);
    int64_t rows = 0, cols = -1, n = 0, start = -1, goal = -1, width = 0;
    for (long i = 0; i < size; i++) {
        char ch = text[i];
        if (ch == '\n') { if (width) { cols = width; rows++; } width = 0; continue; }
        if (ch == '\r') continue;
        if (ch == 'C') start = n;
        if (ch == 'S') goal = n;
        blocked[n++] = ch == 'x';
        width++;
    }
    if (width) { cols = width; rows++; }
    int32_t *dist = malloc(sizeof(int32_t) * (size_t)n);
    double best = 1e300;
    int64_t expanded = 0;
    for (int rep = 0; rep < atoi(argv[2]); rep++) {
        clock_t began = clock();
        expanded = bfs(blocked, rows, cols, start, goal, dist);
        double ms = 1000.0 * (double)(clock() - began) / CLOCKS_PER_SEC;
        if (ms < best) best = ms;
    }
    printf("%d %lld %.3f\n", dist[goal], (long long)expanded, best);
    return 0;
}
