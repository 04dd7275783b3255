/* The checker's fast copy of an answer (knightcert.problems.checkers.plain): exact dicts, lists,
 * base numpy arrays and atoms (None, bool, int, float, str), copied in C.
 *
 * copy(value, depth, in_list, budget, max_depth, pairs, array_copy) returns a copy of value made
 * of new lists and dicts and the same atoms, or raises NotExact at anything else (a subclass, a
 * tuple, a key that is not an atom), deeper than max_depth, or past budget items; the caller then
 * takes the general copy, which converts or refuses such values by name. No code of the answer's
 * runs: every container is read by the base type's own C code, its type tested by identity, and
 * what follows reads the copy. Items spent: a list of up to 8 items 64, a longer one its length;
 * a list of lists also the product of its length and the longest of them; a dict its length; an
 * array its size. A list of [int, int] lists is recorded in pairs under its id. An array is
 * copied by array_copy(array, in_list) (a base array of numbers, kept as an array, or a list
 * inside a list), which raises NotExact for any other dtype. */

#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *NotExact;

static int is_atom(PyObject *v) {
    return v == Py_None || PyBool_Check(v) || PyLong_CheckExact(v) || PyFloat_CheckExact(v) ||
           PyUnicode_CheckExact(v);
}

typedef struct {
    Py_ssize_t budget, max_depth;
    PyObject *pairs, *array_copy, *ndarray;
} Copying;

static int spend(Copying *c, Py_ssize_t items) {
    c->budget -= items;
    if (c->budget < 0) {
        PyErr_SetNone(NotExact);
        return -1;
    }
    return 0;
}

static PyObject *copy_value(Copying *c, PyObject *value, Py_ssize_t depth, int in_list);

/* The rows of a list whose items are all lists: a new list of their copies, recorded in pairs
 * when they are [int, int] pairs; Py_None when an item of a row is not an atom (the caller then
 * copies item by item); NULL on an error. */
static PyObject *copy_rows(Copying *c, PyObject *copy) {
    Py_ssize_t n = PyList_GET_SIZE(copy), longest = 0, i, j;
    for (i = 0; i < n; i++)
        if (PyList_GET_SIZE(PyList_GET_ITEM(copy, i)) > longest)
            longest = PyList_GET_SIZE(PyList_GET_ITEM(copy, i));
    if (longest && n > PY_SSIZE_T_MAX / longest) {
        PyErr_SetNone(NotExact);
        return NULL;
    }
    if (spend(c, n * longest) < 0)
        return NULL;
    PyObject *rows = PyList_New(n);
    if (rows == NULL)
        return NULL;
    int pairs = 1;
    for (i = 0; i < n; i++) {
        PyObject *row = PyList_GetSlice(PyList_GET_ITEM(copy, i), 0, PY_SSIZE_T_MAX);
        if (row == NULL) {
            Py_DECREF(rows);
            return NULL;
        }
        PyList_SET_ITEM(rows, i, row);
        pairs = pairs && PyList_GET_SIZE(row) == 2;
        for (j = 0; j < PyList_GET_SIZE(row); j++) {
            PyObject *item = PyList_GET_ITEM(row, j);
            if (!is_atom(item)) {
                Py_DECREF(rows);
                Py_RETURN_NONE;
            }
            pairs = pairs && PyLong_CheckExact(item);
        }
    }
    if (pairs) {
        PyObject *id = PyLong_FromVoidPtr(rows);
        if (id == NULL || PyDict_SetItem(c->pairs, id, rows) < 0) {
            Py_XDECREF(id);
            Py_DECREF(rows);
            return NULL;
        }
        Py_DECREF(id);
    }
    return rows;
}

static PyObject *copy_list(Copying *c, PyObject *value, Py_ssize_t depth) {
    PyObject *copy = PyList_GetSlice(value, 0, PY_SSIZE_T_MAX);
    if (copy == NULL)
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(copy), i;
    if (spend(c, n <= 8 ? 64 : n) < 0)
        goto fail;
    int atoms = 1, lists = n > 0;
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(copy, i);
        atoms = atoms && is_atom(item);
        lists = lists && PyList_CheckExact(item);
    }
    if (atoms)
        return copy;
    if (lists) {
        PyObject *rows = copy_rows(c, copy);
        if (rows != Py_None) {
            Py_DECREF(copy);
            return rows;
        }
        Py_DECREF(rows);
    }
    for (i = 0; i < n; i++) {
        PyObject *item = PyList_GET_ITEM(copy, i);
        if (is_atom(item))
            continue;
        PyObject *made = copy_value(c, item, depth + 1, 1);
        if (made == NULL)
            goto fail;
        PyList_SetItem(copy, i, made); /* the item's reference goes with it */
    }
    return copy;
fail:
    Py_DECREF(copy);
    return NULL;
}

static PyObject *copy_dict(Copying *c, PyObject *value, Py_ssize_t depth) {
    PyObject *copy = PyDict_Copy(value), *key, *item;
    if (copy == NULL)
        return NULL;
    Py_ssize_t at = 0;
    if (spend(c, PyDict_GET_SIZE(copy)) < 0)
        goto fail;
    while (PyDict_Next(copy, &at, &key, &item))
        if (!is_atom(key)) { /* before the keys are hashed again: an atom's hash runs no code */
            PyErr_SetNone(NotExact);
            goto fail;
        }
    at = 0;
    while (PyDict_Next(copy, &at, &key, &item)) {
        if (is_atom(item))
            continue;
        PyObject *made = copy_value(c, item, depth + 1, 0);
        if (made == NULL)
            goto fail;
        int failed = PyDict_SetItem(copy, key, made); /* an existing key: the table is not resized */
        Py_DECREF(made);
        if (failed < 0)
            goto fail;
    }
    return copy;
fail:
    Py_DECREF(copy);
    return NULL;
}

static PyObject *copy_array(Copying *c, PyObject *value, int in_list) {
    PyObject *size = PyObject_GetAttrString(value, "size");
    if (size == NULL)
        return NULL;
    Py_ssize_t items = PyLong_AsSsize_t(size);
    Py_DECREF(size);
    if (items < 0 || spend(c, items) < 0) {
        if (!PyErr_Occurred() || PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            PyErr_SetNone(NotExact);
        }
        return NULL;
    }
    return PyObject_CallFunctionObjArgs(c->array_copy, value, in_list ? Py_True : Py_False, NULL);
}

static PyObject *copy_value(Copying *c, PyObject *value, Py_ssize_t depth, int in_list) {
    if (depth > c->max_depth) {
        PyErr_SetNone(NotExact);
        return NULL;
    }
    if (is_atom(value))
        return Py_NewRef(value);
    if (PyList_CheckExact(value))
        return copy_list(c, value, depth);
    if (PyDict_CheckExact(value))
        return copy_dict(c, value, depth);
    if ((PyObject *)Py_TYPE(value) == c->ndarray)
        return copy_array(c, value, in_list);
    PyErr_SetNone(NotExact);
    return NULL;
}

static PyObject *copy(PyObject *self, PyObject *args) {
    PyObject *value;
    Py_ssize_t depth;
    int in_list;
    Copying c;
    if (!PyArg_ParseTuple(args, "OnpnnO!OO", &value, &depth, &in_list, &c.budget, &c.max_depth,
                          &PyDict_Type, &c.pairs, &c.array_copy, &c.ndarray))
        return NULL;
    return copy_value(&c, value, depth, in_list);
}

static PyMethodDef methods[] = {
    {"copy", copy, METH_VARARGS,
     "copy(value, depth, in_list, budget, max_depth, pairs, array_copy, ndarray): the fast copy"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "exact_copy", NULL, -1, methods};

PyMODINIT_FUNC PyInit_exact_copy(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    NotExact = PyErr_NewException("knightcert.problems.checkers.exact_copy.NotExact", NULL, NULL);
    if (NotExact == NULL || PyModule_AddObjectRef(m, "NotExact", NotExact) < 0 ||
        PyModule_AddIntConstant(m, "STAMP", STAMP) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
