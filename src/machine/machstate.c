/*
 * machstate.c — readings of /proc and /sys around a pass (see machstate.h).
 *
 * The CPU shares compare two kinds of clock ticks: the whole machine's from
 * /proc/stat and this process's (all its threads: OpenBLAS's and the OpenCL
 * runtime's) from /proc/self/stat.  What the machine was busy with beyond
 * our own ticks is "others": other processes and the kernel's own work.
 */
#define _POSIX_C_SOURCE 200809L
#include "machstate.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Reads the first line of path into buf; 0 when it cannot. */
static int read_line(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    int ok;
    if (!f)
        return 0;
    ok = fgets(buf, (int)size, f) != NULL;
    fclose(f);
    return ok;
}

int machstate_parse_stat(const char *text, machstate_ticks *t)
{
    unsigned long long v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    int n;
    if (strncmp(text, "cpu ", 4) != 0)
        return 0;
    /* user nice system idle iowait irq softirq steal (guest time is already
     * inside user and nice); kernels before 2.6.11 stop earlier */
    n = sscanf(text + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
               &v[4], &v[5], &v[6], &v[7]);
    if (n < 4)
        return 0;
    t->total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    t->busy = v[0] + v[1] + v[2] + v[5] + v[6];
    t->steal = v[7];
    return 1;
}

int machstate_parse_self(const char *text, unsigned long long *ticks)
{
    const char *p = strrchr(text, ')');
    unsigned long long utime, stime;
    int field;
    if (!p)
        return 0;
    /* after the command name: field 3 (state) onwards; utime and stime are
     * fields 14 and 15 */
    p++;
    for (field = 3; field < 14; field++) {
        while (*p == ' ')
            p++;
        if (!*p)
            return 0;
        while (*p && *p != ' ')
            p++;
    }
    if (sscanf(p, "%llu %llu", &utime, &stime) != 2)
        return 0;
    *ticks = utime + stime;
    return 1;
}

static void read_ticks(machstate_ticks *t, const machstate_mark *m)
{
    char stat[1024], self[1024], path[64];
    int i;
    memset(t, 0, sizeof *t);
    t->ok = read_line("/proc/stat", stat, sizeof stat) && machstate_parse_stat(stat, t) &&
            read_line("/proc/self/stat", self, sizeof self) && machstate_parse_self(self, &t->self);
    /* a process gone leaves its ticks out of both ends alike, or of the
     * end only, which then reads as ours going backwards: no reading */
    for (i = 0; t->ok && i < m->npids; i++) {
        unsigned long long other = 0;
        snprintf(path, sizeof path, "/proc/%d/stat", m->pids[i]);
        if (read_line(path, self, sizeof self) && machstate_parse_self(self, &other))
            t->self += other;
    }
}

void machstate_shares(const machstate_ticks *a, const machstate_ticks *b, machstate *out)
{
    double dt, self, busy;
    out->has_cpu = 0;
    if (!a->ok || !b->ok || b->total <= a->total || b->busy < a->busy || b->self < a->self ||
        b->steal < a->steal)
        return;
    dt = (double)(b->total - a->total);
    self = (double)(b->self - a->self);
    busy = (double)(b->busy - a->busy);
    out->has_cpu = 1;
    out->self_cpu = self / dt > 1.0 ? 1.0 : self / dt;
    /* the two counters are sampled apart, so ours may exceed the machine's
     * by a tick */
    out->others_cpu = busy > self ? (busy - self) / dt : 0.0;
    out->steal = (double)(b->steal - a->steal) / dt;
}

/* Mean of the online CPUs' scaling_cur_freq (kHz), in MHz. */
static int read_freq(double *mhz)
{
    DIR *d = opendir("/sys/devices/system/cpu");
    struct dirent *de;
    double sum = 0.0;
    int n = 0;
    if (!d)
        return 0;
    while ((de = readdir(d))) {
        char path[512], line[64];
        if (strncmp(de->d_name, "cpu", 3) != 0 || de->d_name[3] < '0' || de->d_name[3] > '9')
            continue;
        snprintf(path, sizeof path, "/sys/devices/system/cpu/%s/cpufreq/scaling_cur_freq",
                 de->d_name);
        if (read_line(path, line, sizeof line)) {
            char *end;
            double khz = strtod(line, &end);
            if (end != line && khz > 0.0) {
                sum += khz / 1000.0;
                n++;
            }
        }
    }
    closedir(d);
    if (n > 0)
        *mhz = sum / n;
    return n > 0;
}

/* The hottest thermal zone (millidegrees), in degrees Celsius. */
static int read_temp(double *celsius)
{
    DIR *d = opendir("/sys/class/thermal");
    struct dirent *de;
    int n = 0;
    if (!d)
        return 0;
    while ((de = readdir(d))) {
        char path[512], line[64];
        if (strncmp(de->d_name, "thermal_zone", 12) != 0)
            continue;
        snprintf(path, sizeof path, "/sys/class/thermal/%s/temp", de->d_name);
        if (read_line(path, line, sizeof line)) {
            char *end;
            double milli = strtod(line, &end);
            if (end != line && (n == 0 || milli / 1000.0 > *celsius)) {
                *celsius = milli / 1000.0;
                n++;
            }
        }
    }
    closedir(d);
    return n > 0;
}

void machstate_begin(machstate_mark *m, const int *pids, int npids)
{
    int i;
    m->npids = 0;
    for (i = 0; i < npids && m->npids < MACHSTATE_MAX_PIDS; i++)
        if (pids[i] > 0)
            m->pids[m->npids++] = pids[i];
    read_ticks(&m->ticks, m);
}

void machstate_end(const machstate_mark *m, machstate *out)
{
    machstate_end_with(m, 0, out);
}

void machstate_end_with(const machstate_mark *m, unsigned long long ours, machstate *out)
{
    machstate_ticks now;
    char line[256];

    memset(out, 0, sizeof *out);
    read_ticks(&now, m);
    now.self += ours;
    machstate_shares(&m->ticks, &now, out);
    out->has_loadavg =
        read_line("/proc/loadavg", line, sizeof line) && sscanf(line, "%lf", &out->loadavg) == 1;
    out->has_freq = read_freq(&out->freq_mhz);
    out->has_temp = read_temp(&out->temp_c);
}
