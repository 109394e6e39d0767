/*
 * clgemm_config.c — the OpenCL kernels' build configuration
 * (clgemm_config.h): defaults, consistency, option strings.
 */
#define _POSIX_C_SOURCE 200809L
#include "clgemm_config.h"

#include <stdio.h>
#include <string.h>

int clgemm_config_default(const device_info *d, clgemm_config *cfg)
{
    /* The register-blocked defaults were measured on PoCL 3.1 (AVX2, 16 ymm
     * registers), with kernel event times alternated side by side.  Groups
     * of 2×16 items: PoCL runs a group's items one after another on one
     * core, so the items down the rows reuse the strip of W the group staged
     * in local memory (kb rows, see dense.cl); staging beat reading W from
     * global memory in 1×16 groups 1.3–1.5× at K=N=2048 and equalled it at
     * 512.  kb = 128 keeps the 2×16-column tile at 16 KiB, within L1 beside
     * x (256 was as fast with 8-wide blocks, 1.6× slower with 16-wide).
     * Blocks of 6×16 as float16 (12 ymm accumulators) beat 8×8 as float8
     * 1.3–1.6× forward (batch 1024, K=N=512 and 2048) and 1.35× in training
     * (1024×256); 6×16 as float8 and 4×16 were slower, and a 4×4 dx block
     * beat 2×4 and 2×2.  `breakeven tune` tries the alternatives per device. */
    const clgemm_config cpu = {.variant = CLGEMM_REG,
                               .vw = 16,
                               .tm = 6,
                               .tn = 16,
                               .dtm = 4,
                               .dtn = 4,
                               .lx = 2,
                               .ly = 16,
                               .kb = 128};
    /* Local-memory tiles in the style of CLBlast's Xgemm defaults: 64×64
     * tiles of 4×4 outputs (256 items) where groups of 256 are the norm
     * (NVIDIA, AMD), 32×64 tiles of 4×4 (128 items) on Intel GPUs, whose
     * smaller register files favour fewer outputs per group.  On NVIDIA and
     * AMD, float4 loads with double-buffered tiles (LVW=4, DBUF=1): on an
     * H100 (driver 580) `breakeven tune` measured them 1.6× the scalar tiles
     * forward (28.2 against 17.8 TFLOP/s at hidden 2048 × batch 1024) and
     * 1.9× in training (512 × 256), the best balance of the 28 candidates;
     * 128×128 tiles of 8×8 were faster forward (up to 38 TFLOP/s) but half
     * as fast in training.  The default serves both modes: that forward
     * figure is of one tuning run, and `breakeven tune` now picks a
     * configuration per mode on the device itself.  No AMD GPU has been
     * measured. */
    const clgemm_config gpu = {.variant = CLGEMM_LOCAL,
                               .vw = 1,
                               .tsm = 64,
                               .tsn = 64,
                               .tsk = 16,
                               .wptm = 4,
                               .wptn = 4,
                               .lvw = 4,
                               .dbuf = 1};
    const clgemm_config intel = {
        .variant = CLGEMM_LOCAL, .vw = 1, .tsm = 32, .tsn = 64, .tsk = 16, .wptm = 4, .wptn = 4};
    if (strcmp(d->type, "GPU") != 0 && strcmp(d->type, "ACCELERATOR") != 0)
        *cfg = cpu;
    else if (strstr(d->vendor, "Intel") || strstr(d->vendor, "intel"))
        *cfg = intel;
    else
        *cfg = gpu;
    return BE_OK;
}

static int pow2_upto16(int v)
{
    return v == 1 || v == 2 || v == 4 || v == 8 || v == 16;
}

int clgemm_config_check(const clgemm_config *c, err *e)
{
    if (c->variant == CLGEMM_REG) {
        if (!pow2_upto16(c->vw))
            return err_set(e, BE_EUSAGE, "kernel config: vw=%d is not 1, 2, 4, 8 or 16", c->vw);
        if (c->tm < 1 || c->tm > 16 || c->tn < c->vw || c->tn > 64 || c->tn % c->vw)
            return err_set(
                e, BE_EUSAGE,
                "kernel config: tm=%d tn=%d (want 1..16, tn a multiple of vw=%d up to 64)", c->tm,
                c->tn, c->vw);
        if (c->dtm < 1 || c->dtm > 8 || c->dtn < 1 || c->dtn > 8)
            return err_set(e, BE_EUSAGE, "kernel config: dtm=%d dtn=%d (want 1..8)", c->dtm,
                           c->dtn);
        if (c->lx < 1 || c->ly < 1 || c->lx * c->ly > 1024)
            return err_set(e, BE_EUSAGE, "kernel config: group %d×%d (want 1..1024 items)", c->lx,
                           c->ly);
        if (c->kb < 0 || c->kb > 1024 || c->kb * c->lx * c->tn * 4 > 32768)
            return err_set(e, BE_EUSAGE,
                           "kernel config: kb=%d (want 0..1024 and a local tile kb×%d×%d "
                           "of at most 32 KiB)",
                           c->kb, c->lx, c->tn);
        return BE_OK;
    }
    if (c->variant == CLGEMM_LOCAL) {
        if ((c->lvw != 0 && c->lvw != 2 && c->lvw != 4) || (c->dbuf != 0 && c->dbuf != 1) ||
            (c->dbuf && !c->lvw))
            return err_set(e, BE_EUSAGE,
                           "kernel config: lvw=%d dbuf=%d (want lvw 0, 2 or 4; dbuf 0 or 1, "
                           "1 only with lvw)",
                           c->lvw, c->dbuf);
        /* The scalar tiles carry a padding column each; the vector tiles
         * none (they are whole vectors), but two slices with dbuf. */
        if (c->tsm < 1 || c->tsn < 1 || c->tsk < 1 || c->tsk > 64 || c->wptm < 1 || c->wptn < 1 ||
            c->tsm % c->wptm || c->tsn % c->wptn ||
            (c->tsm / c->wptm) * (c->tsn / c->wptn) > 1024 ||
            (c->lvw ? (c->tsm + c->tsn) * c->tsk * 4 * (1 + c->dbuf)
                    : (c->tsm + c->tsn + 2) * c->tsk * 4) > 32768)
            return err_set(e, BE_EUSAGE,
                           "kernel config: tiles %d×%d×%d of %d×%d per item are inconsistent "
                           "(tile multiple of work per item, ≤1024 items, ≤32 KiB local)",
                           c->tsm, c->tsn, c->tsk, c->wptm, c->wptn);
        if (c->lvw && (c->wptm % c->lvw || c->wptn % c->lvw || c->tsk % c->lvw))
            return err_set(e, BE_EUSAGE,
                           "kernel config: %d×%d per item and depth %d are not multiples of "
                           "lvw=%d",
                           c->wptm, c->wptn, c->tsk, c->lvw);
        return BE_OK;
    }
    return err_set(e, BE_EUSAGE, "kernel config: unknown variant %d", (int)c->variant);
}

int clgemm_config_options(const clgemm_config *c, char *buf, size_t len, err *e)
{
    int rc = clgemm_config_check(c, e), n;
    if (rc)
        return rc;
    if (c->variant == CLGEMM_REG)
        n = snprintf(buf, len,
                     "-DGEMM_LOCAL=0 -DVW=%d -DTM=%d -DTN=%d -DDTM=%d -DDTN=%d -DLX=%d -DLY=%d "
                     "-DKB=%d",
                     c->vw, c->tm, c->tn, c->dtm, c->dtn, c->lx, c->ly, c->kb);
    else if (!c->lvw)
        n = snprintf(buf, len, "-DGEMM_LOCAL=1 -DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d",
                     c->tsm, c->tsn, c->tsk, c->wptm, c->wptn);
    else
        n = snprintf(buf, len,
                     "-DGEMM_LOCAL=1 -DTSM=%d -DTSN=%d -DTSK=%d -DWPTM=%d -DWPTN=%d -DLVW=%d%s",
                     c->tsm, c->tsn, c->tsk, c->wptm, c->wptn, c->lvw, c->dbuf ? " -DDBUF=1" : "");
    if (n < 0 || (size_t)n >= len)
        return err_set(e, BE_EUSAGE, "kernel config: options longer than %zu bytes", len);
    return BE_OK;
}

int clgemm_config_same(const clgemm_config *a, const clgemm_config *b)
{
    char oa[512], ob[512];
    return clgemm_config_options(a, oa, sizeof oa, NULL) == BE_OK &&
           clgemm_config_options(b, ob, sizeof ob, NULL) == BE_OK && strcmp(oa, ob) == 0;
}

/* The -D names of each variant, in clgemm_config_options's order: those
 * every option string of the variant has, then CLGEMM_LOCAL's optional ones. */
static const char *const reg_names[] = {"VW", "TM", "TN", "DTM", "DTN", "LX", "LY", "KB"};
static const char *const loc_names[] = {"TSM", "TSN", "TSK", "WPTM", "WPTN"};
static const char *const opt_names[] = {"LVW", "DBUF"};
#define NREG 8
#define NLOC 5
#define NOPT 2

int clgemm_config_parse(const char *opts, clgemm_config *cfg, err *e)
{
    clgemm_config c = {.variant = CLGEMM_REG, .vw = 1};
    int *const reg_f[NREG] = {&c.vw, &c.tm, &c.tn, &c.dtm, &c.dtn, &c.lx, &c.ly, &c.kb};
    int *const loc_f[NLOC] = {&c.tsm, &c.tsn, &c.tsk, &c.wptm, &c.wptn};
    int *const opt_f[NOPT] = {&c.lvw, &c.dbuf};
    int reg_seen[NREG] = {0}, loc_seen[NLOC] = {0}, opt_seen[NOPT] = {0}, variant = -1, nreg = 0,
        nloc = 0, nopt = 0, rc, i;
    const char *s = opts;
    while (*s) {
        char name[16];
        int v, used = 0, hit = 0;
        if (*s == ' ') {
            s++;
            continue;
        }
        if (sscanf(s, "-D%15[A-Z_]=%d%n", name, &v, &used) != 2 || used == 0 ||
            (s[used] && s[used] != ' '))
            return err_set(e, BE_EUSAGE, "kernel options: cannot read \"%.40s\"", s);
        s += used;
        if (strcmp(name, "GEMM_LOCAL") == 0) {
            if (variant >= 0 || (v != 0 && v != 1))
                return err_set(e, BE_EUSAGE, "kernel options: bad or repeated -DGEMM_LOCAL");
            variant = v;
            continue;
        }
        for (i = 0; i < NREG; i++)
            if (strcmp(name, reg_names[i]) == 0) {
                hit = reg_seen[i]++ ? -1 : 1;
                *reg_f[i] = v;
                nreg++;
            }
        for (i = 0; i < NLOC; i++)
            if (strcmp(name, loc_names[i]) == 0) {
                hit = loc_seen[i]++ ? -1 : 1;
                *loc_f[i] = v;
                nloc++;
            }
        for (i = 0; i < NOPT; i++)
            if (strcmp(name, opt_names[i]) == 0) {
                hit = opt_seen[i]++ ? -1 : 1;
                *opt_f[i] = v;
                nopt++;
            }
        if (hit <= 0)
            return err_set(e, BE_EUSAGE, "kernel options: -D%s is %s", name,
                           hit ? "given twice" : "unknown");
    }
    if (variant < 0 || (variant == 0 && (nreg != NREG || nloc || nopt)) ||
        (variant == 1 && (nloc != NLOC || nreg)))
        return err_set(e, BE_EUSAGE,
                       "kernel options: \"%.60s\" does not give exactly its variant's options",
                       opts);
    c.variant = variant ? CLGEMM_LOCAL : CLGEMM_REG;
    if ((rc = clgemm_config_check(&c, e)))
        return rc;
    *cfg = c;
    return BE_OK;
}
