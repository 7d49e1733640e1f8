/* A rectangle of a board painted and put in the palette's indices, in one call: the same pixels as
 * pasting its parts with Pillow and quantizing them (render.board `Painter.indices` is the way in).
 *
 * Pillow releases the GIL for each of the forty-odd pastes of a board, so a drawing thread hands
 * the GIL to the event loop (and waits for it back) at each; here a rectangle is one call, which
 * releases it once. The blends are Pillow's own (Paste.c's BLEND: a * (255 - m) + b * m, divided
 * by 255 rounding as Pillow does), and a pixel's index is the palette's for its colour's top six
 * bits of each channel, which is how Pillow's quantizer looks colours up (render/palette.py): the
 * table `lut` is made by Pillow itself, from every such colour.
 *
 * It is an optional speed-up: without a C compiler the package installs without it and boards
 * are painted with Pillow alone.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define LUT_SIZE (1 << 18)
#define MAX_OPS 4096

enum { COPY = 0, BLEND_ALPHA = 1, COLOUR_MASK = 2 };

/* An op; `mask` is a colour's mask, or a copied or blended source's indices (`index`, one byte a
 * pixel, in the source's layout): where the source is opaque, its index is the pixel's. */
typedef struct {
    int kind;
    Py_buffer source, mask;
    Py_ssize_t source_width, mask_width;
    Py_ssize_t sx, sy, w, h, dx, dy;
} Op;

static inline uint8_t lookup(const uint8_t *table, const uint8_t *rgb) {
    return table[((rgb[0] >> 2) << 12) | ((rgb[1] >> 2) << 6) | (rgb[2] >> 2)];
}

static inline uint8_t blend(unsigned int mask, unsigned int under, unsigned int over) {
    unsigned int tmp = under * (255 - mask) + over * mask + 128;
    return (uint8_t)(((tmp >> 8) + tmp) >> 8);
}

static void release_ops(Op *ops, Py_ssize_t count) {
    for (Py_ssize_t i = 0; i < count; i++) {
        PyBuffer_Release(&ops[i].source);
        PyBuffer_Release(&ops[i].mask);
    }
}

/* Clip the op to the rectangle (width x height): its source and destination corners and size. */
static int clip(Op *op, Py_ssize_t width, Py_ssize_t height) {
    if (op->dx < 0) { op->sx -= op->dx; op->w += op->dx; op->dx = 0; }
    if (op->dy < 0) { op->sy -= op->dy; op->h += op->dy; op->dy = 0; }
    if (op->dx + op->w > width) op->w = width - op->dx;
    if (op->dy + op->h > height) op->h = height - op->dy;
    return op->w > 0 && op->h > 0;
}

/* The op painted on `pixels` (RGB), each pixel's index in `indices` kept with it: copied where the
 * source is opaque, looked up where it blends. */
static void run(const Op *op, uint8_t *pixels, uint8_t *indices, Py_ssize_t width, const uint8_t *table) {
    for (Py_ssize_t y = 0; y < op->h; y++) {
        uint8_t *out = pixels + ((op->dy + y) * width + op->dx) * 3;
        uint8_t *index = indices + (op->dy + y) * width + op->dx;
        const uint8_t *known = (const uint8_t *)op->mask.buf + (op->sy + y) * op->mask_width + op->sx;
        if (op->kind == COPY) {
            const uint8_t *in = (const uint8_t *)op->source.buf + ((op->sy + y) * op->source_width + op->sx) * 3;
            memcpy(out, in, (size_t)op->w * 3);
            memcpy(index, known, (size_t)op->w);
        } else if (op->kind == BLEND_ALPHA) {
            const uint8_t *in = (const uint8_t *)op->source.buf + ((op->sy + y) * op->source_width + op->sx) * 4;
            for (Py_ssize_t x = 0; x < op->w; x++, in += 4, out += 3) {
                unsigned int a = in[3];
                if (a == 255) {
                    out[0] = in[0]; out[1] = in[1]; out[2] = in[2];
                    index[x] = known[x];
                } else if (a) {
                    out[0] = blend(a, out[0], in[0]);
                    out[1] = blend(a, out[1], in[1]);
                    out[2] = blend(a, out[2], in[2]);
                    index[x] = lookup(table, out);
                }
            }
        } else {
            const uint8_t *colour = (const uint8_t *)op->source.buf;
            uint8_t own = lookup(table, colour);
            for (Py_ssize_t x = 0; x < op->w; x++, out += 3) {
                unsigned int m = known[x];
                if (m == 255) {
                    out[0] = colour[0]; out[1] = colour[1]; out[2] = colour[2];
                    index[x] = own;
                } else if (m) {
                    out[0] = blend(m, out[0], colour[0]);
                    out[1] = blend(m, out[1], colour[1]);
                    out[2] = blend(m, out[2], colour[2]);
                    index[x] = lookup(table, out);
                }
            }
        }
    }
}

static int read_op(PyObject *item, Op *op) {
    PyObject *source, *mask;
    if (!PyArg_ParseTuple(item, "iOnnnnnnnOn;an op is (kind, source, source width, sx, sy, w, h, dx, dy, mask or "
                          "indices, mask width)",
                          &op->kind, &source, &op->source_width, &op->sx, &op->sy, &op->w, &op->h, &op->dx,
                          &op->dy, &mask, &op->mask_width))
        return -1;
    if (op->kind < COPY || op->kind > COLOUR_MASK) {
        PyErr_Format(PyExc_ValueError, "unknown op kind %d", op->kind);
        return -1;
    }
    if (PyObject_GetBuffer(source, &op->source, PyBUF_SIMPLE) < 0) return -1;
    if (PyObject_GetBuffer(mask, &op->mask, PyBUF_SIMPLE) < 0) {
        PyBuffer_Release(&op->source);
        return -1;
    }
    if (op->kind != COLOUR_MASK) op->mask_width = op->source_width;  /* the source's indices, in its layout */
    /* The source, and the mask or indices, must hold the whole of the box they are read from. */
    Py_ssize_t width = op->kind == COLOUR_MASK ? op->mask_width : op->source_width;
    Py_ssize_t depth = op->kind == COPY ? 3 : op->kind == BLEND_ALPHA ? 4 : 1;
    Py_ssize_t length = op->kind == COLOUR_MASK ? op->mask.len : op->source.len;
    int fits = op->sx >= 0 && op->sy >= 0 && op->w >= 0 && op->h >= 0 && width > 0 && op->sx + op->w <= width
               && (op->sy + op->h) * width * depth <= length && (op->sy + op->h) * width <= op->mask.len
               && (op->kind != COLOUR_MASK || op->source.len >= 3);
    if (!fits) {
        PyErr_SetString(PyExc_ValueError, "an op reads outside its source");
        PyBuffer_Release(&op->source);
        PyBuffer_Release(&op->mask);
        return -1;
    }
    return 0;
}

static PyObject *paint(PyObject *self, PyObject *args) {
    Py_ssize_t width, height;
    PyObject *sequence;
    Py_buffer lut;
    (void)self;
    if (!PyArg_ParseTuple(args, "nnOy*", &width, &height, &sequence, &lut)) return NULL;
    if (width <= 0 || height <= 0 || width > 16384 || height > 16384 || lut.len != LUT_SIZE) {
        PyBuffer_Release(&lut);
        PyErr_SetString(PyExc_ValueError, "a rectangle of 1 to 16384 pixels a side, and a table of 2**18 indices");
        return NULL;
    }
    PyObject *items = PySequence_Fast(sequence, "ops must be a sequence");
    if (items == NULL) {
        PyBuffer_Release(&lut);
        return NULL;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(items);
    if (count > MAX_OPS) {
        Py_DECREF(items);
        PyBuffer_Release(&lut);
        PyErr_SetString(PyExc_ValueError, "too many ops");
        return NULL;
    }
    Op *ops = PyMem_Calloc((size_t)count + 1, sizeof(Op));
    uint8_t *pixels = PyMem_Malloc((size_t)(width * height * 3));
    PyObject *result = PyBytes_FromStringAndSize(NULL, width * height);
    Py_ssize_t read = 0;
    if (ops == NULL || pixels == NULL || result == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    for (; read < count; read++) {
        if (read_op(PySequence_Fast_GET_ITEM(items, read), &ops[read]) < 0) goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    const uint8_t *table = (const uint8_t *)lut.buf;
    uint8_t *indices = (uint8_t *)PyBytes_AS_STRING(result);
    /* Black where no op paints (none, when the first op is a background that covers it all). */
    if (count == 0 || ops[0].kind != COPY || !clip(&ops[0], width, height) || ops[0].dx || ops[0].dy
        || ops[0].w != width || ops[0].h != height) {
        memset(pixels, 0, (size_t)(width * height * 3));
        memset(indices, table[0], (size_t)(width * height));
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        if (clip(&ops[i], width, height)) run(&ops[i], pixels, indices, width, table);
    }
    Py_END_ALLOW_THREADS
    release_ops(ops, read);
    PyMem_Free(ops);
    PyMem_Free(pixels);
    Py_DECREF(items);
    PyBuffer_Release(&lut);
    return result;
done:
    release_ops(ops, read);
    PyMem_Free(ops);
    PyMem_Free(pixels);
    Py_XDECREF(result);
    Py_DECREF(items);
    PyBuffer_Release(&lut);
    return NULL;
}

/* put(rows, stride, x, y, indices, width): the rectangle `indices` (rows of `width` bytes) written
 * into `rows` (a writable buffer of rows `stride` bytes long) with its top left corner at column x,
 * row y; the rows of it that fall outside `rows` (above or below) are left out. */
static PyObject *put(PyObject *self, PyObject *args) {
    Py_buffer rows, indices;
    Py_ssize_t stride, x, y, width;
    (void)self;
    if (!PyArg_ParseTuple(args, "w*nnny*n", &rows, &stride, &x, &y, &indices, &width)) return NULL;
    PyObject *result = NULL;
    if (stride <= 0 || width <= 0 || x < 0 || x + width > stride || indices.len % width != 0) {
        PyErr_SetString(PyExc_ValueError, "a rectangle that fits across the rows");
        goto done;
    }
    Py_ssize_t height = indices.len / width, count = rows.len / stride;
    Py_ssize_t first = y < 0 ? -y : 0, last = y + height > count ? count - y : height;
    for (Py_ssize_t row = first; row < last; row++)
        memcpy((uint8_t *)rows.buf + (y + row) * stride + x, (const uint8_t *)indices.buf + row * width, (size_t)width);
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&rows);
    PyBuffer_Release(&indices);
    return result;
}

/* index(source, depth, lut): the index of each pixel of `source` (`depth` bytes a pixel, 3 or 4:
 * its alpha left aside), as a copied or blended source's indices. */
static PyObject *index_of(PyObject *self, PyObject *args) {
    Py_buffer source, lut;
    int depth;
    (void)self;
    if (!PyArg_ParseTuple(args, "y*iy*", &source, &depth, &lut)) return NULL;
    PyObject *result = NULL;
    if ((depth != 3 && depth != 4) || source.len % depth != 0 || lut.len != LUT_SIZE) {
        PyErr_SetString(PyExc_ValueError, "pixels of 3 or 4 bytes, and a table of 2**18 indices");
        goto done;
    }
    result = PyBytes_FromStringAndSize(NULL, source.len / depth);
    if (result == NULL) goto done;
    uint8_t *out = (uint8_t *)PyBytes_AS_STRING(result);
    const uint8_t *in = (const uint8_t *)source.buf, *table = (const uint8_t *)lut.buf;
    for (Py_ssize_t i = 0; i < source.len / depth; i++, in += depth) out[i] = lookup(table, in);
done:
    PyBuffer_Release(&source);
    PyBuffer_Release(&lut);
    return result;
}

static PyMethodDef methods[] = {
    {"index", index_of, METH_VARARGS,
     "index(source, depth, lut) -> bytes: the palette index of each pixel (its alpha aside)."},
    {"put", put, METH_VARARGS,
     "put(rows, stride, x, y, indices, width): a rectangle of bytes written into rows `stride` long."},
    {"paint", paint, METH_VARARGS,
     "paint(width, height, ops, lut) -> bytes: a rectangle painted by its ops, in palette indices."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_paint_core", NULL, -1, methods};

PyMODINIT_FUNC PyInit__paint_core(void) { return PyModule_Create(&module); }
