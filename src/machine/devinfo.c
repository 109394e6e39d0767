/*
 * devinfo.c — building a device's description (devinfo.h).
 */
#include "devinfo.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void devinfo_prop_add(device_info *info, const char *name, const char *fmt, ...)
{
    device_prop *p;
    va_list ap;
    if (info->nprops >= DEVICE_MAX_PROPS)
        return;
    p = &info->props[info->nprops++];
    snprintf(p->name, sizeof p->name, "%s", name);
    va_start(ap, fmt);
    vsnprintf(p->value, sizeof p->value, fmt, ap);
    va_end(ap);
}

const char *devinfo_prop(const device_info *info, const char *name)
{
    int i;
    for (i = 0; i < info->nprops; i++)
        if (strcmp(info->props[i].name, name) == 0)
            return info->props[i].value;
    return NULL;
}

/* FP32 FLOPs per cycle of one compute unit (an OpenCL compute unit is an
 * NVIDIA SM or an AMD CU), by architecture: fp32 lanes × 2 (a fused
 * multiply-add is two FLOPs).  A name matches as a whole word of the
 * device's name ("A10" is not "A100").  Sources, each giving the FP32
 * cores per SM (or the peak they multiply to):
 *   NVIDIA H100 Tensor Core GPU Architecture whitepaper (2022): 128 FP32
 *     cores per SM; H100 SXM5 132 SMs at 1980 MHz → 66.9 TFLOP/s, the
 *     datasheet's 67; H100 PCIe 114 SMs at 1755 MHz → 51.2 (51).
 *     H200 and H800 are the same chip (datasheets: 67 TFLOP/s SXM).
 *   NVIDIA A100 Tensor Core GPU Architecture whitepaper (2020): 64 FP32
 *     cores per SM; 108 SMs at 1410 MHz → 19.5 TFLOP/s (A30: the same SM).
 *   NVIDIA Ampere GA102 GPU Architecture whitepaper (2020): 128 FP32 per
 *     SM (A10, A40); NVIDIA Ada GPU Architecture (2022): 128 (L4, L40).
 *   NVIDIA Tesla V100 GPU Architecture whitepaper (2017): 64 per SM;
 *     Turing GPU Architecture whitepaper (2018): 64 per SM (T4).
 *   AMD CDNA whitepaper (2020): 64 lanes per CU, MI100 120 CUs at 1502
 *     MHz → 23.1 TFLOP/s; AMD CDNA 2 whitepaper (2021): packed FP32
 *     doubles it, MI250X 220 CUs at 1700 MHz → 95.7; AMD CDNA 3
 *     whitepaper (2023): MI300X 304 CUs at 2100 MHz → 163.4.  AMD's
 *     OpenCL names these devices by their gfx target. */
static const struct {
    const char *word; /* a word of the device's name */
    int per_cycle;    /* fp32 FLOPs per compute unit per cycle */
    const char *arch;
} gpu_table[] = {
    {"H100", 256, "NVIDIA Hopper"},       {"H200", 256, "NVIDIA Hopper"},
    {"H800", 256, "NVIDIA Hopper"},       {"A100", 128, "NVIDIA Ampere GA100"},
    {"A800", 128, "NVIDIA Ampere GA100"}, {"A30", 128, "NVIDIA Ampere GA100"},
    {"A10", 256, "NVIDIA Ampere GA102"},  {"A10G", 256, "NVIDIA Ampere GA102"},
    {"A40", 256, "NVIDIA Ampere GA102"},  {"L4", 256, "NVIDIA Ada"},
    {"L40", 256, "NVIDIA Ada"},           {"L40S", 256, "NVIDIA Ada"},
    {"V100", 128, "NVIDIA Volta"},        {"T4", 128, "NVIDIA Turing"},
    {"gfx908", 128, "AMD CDNA"},          {"gfx90a", 256, "AMD CDNA 2"},
    {"gfx942", 256, "AMD CDNA 3"},
};

/* 1 when word occurs in s as a whole word (bounded by neither a letter
 * nor a digit). */
static int has_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    const char *p;
    for (p = s; (p = strstr(p, word)); p++)
        if ((p == s || !isalnum((unsigned char)p[-1])) && !isalnum((unsigned char)p[n]))
            return 1;
    return 0;
}

/* A property that is a positive number, or 0. */
static double prop_number(const device_info *info, const char *name)
{
    const char *v = devinfo_prop(info, name);
    char *end;
    double x;
    if (!v)
        return 0.0;
    x = strtod(v, &end);
    return end != v && *end == '\0' && isfinite(x) && x > 0.0 ? x : 0.0;
}

/* FP32 FLOPs per core per cycle of an x86 CPU by the widest vector
 * instructions it has (the "isa" the CPU backend records): two fused
 * multiply-add units assumed, the most any x86 core has, so the peak is
 * an upper bound even of a core with one. */
static int cpu_per_cycle(const char *isa)
{
    if (!isa)
        return 0;
    if (strcmp(isa, "avx512") == 0)
        return 2 * 16 * 2;
    if (strcmp(isa, "avx2") == 0)
        return 2 * 8 * 2;
    return 0;
}

int devinfo_peak(const device_info *info, double *flops, char *how, size_t size)
{
    size_t i;
    double units, mhz;
    *flops = 0.0;
    if (size)
        how[0] = '\0';
    if (strcmp(info->kind, "openblas") == 0) {
        /* every online CPU counted (hardware threads too) at its largest
         * clock: an upper bound, recorded by the CPU backend */
        int per = cpu_per_cycle(devinfo_prop(info, "isa"));
        units = prop_number(info, "cores");
        mhz = prop_number(info, "max_clock_mhz");
        if (!per || !(units > 0.0) || !(mhz > 0.0))
            return 0;
        *flops = units * per * mhz * 1e6;
        snprintf(how, size, "%s: %.0f CPUs × %d FLOP per cycle × %.0f MHz, a bound",
                 devinfo_prop(info, "isa"), units, per, mhz);
        return 1;
    }
    units = prop_number(info, "compute_units");
    mhz = prop_number(info, "max_clock_mhz");
    if (!(units > 0.0) || !(mhz > 0.0))
        return 0;
    for (i = 0; i < sizeof gpu_table / sizeof *gpu_table; i++)
        if (has_word(info->name, gpu_table[i].word)) {
            *flops = units * gpu_table[i].per_cycle * mhz * 1e6;
            snprintf(how, size, "%s: %.0f compute units × %d FLOP per cycle × %.0f MHz",
                     gpu_table[i].arch, units, gpu_table[i].per_cycle, mhz);
            return 1;
        }
    return 0;
}

int devinfo_on_host(const device_info *info)
{
    return strcmp(info->kind, "openblas") == 0 || strstr(info->type, "CPU") != NULL;
}
