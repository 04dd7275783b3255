"""A binary min-heap of int64 keys in a numpy array, for compiled (numba) searches.

Callers pack their priority into the key (for instance ``cost * n + square``)
and keep the heap's size themselves; both functions return the new size.
"""

from __future__ import annotations

from numba import njit

__all__ = ["heap_pop", "heap_push"]


@njit(cache=True, nogil=True)
def heap_push(heap, size, key):  # pragma: no cover - compiled
    j = size
    while j > 0:
        p = (j - 1) // 2
        if heap[p] > key:
            heap[j] = heap[p]
            j = p
        else:
            break
    heap[j] = key
    return size + 1


@njit(cache=True, nogil=True)
def heap_pop(heap, size):  # pragma: no cover - compiled
    top = heap[0]
    size -= 1
    last = heap[size]
    i = 0
    while True:
        child = 2 * i + 1
        if child >= size:
            break
        if child + 1 < size and heap[child + 1] < heap[child]:
            child += 1
        if heap[child] < last:
            heap[i] = heap[child]
            i = child
        else:
            break
    if size > 0:
        heap[i] = last
    return top, size
