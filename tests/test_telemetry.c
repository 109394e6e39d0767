/*
 * test_telemetry.c — device telemetry (cmocka): the counters' arithmetic
 * (wrap-around), the throttle reasons in words and which of them count as
 * throttling, a point's record folded from NVML-like readings (the energy
 * kept only over a second of samples), RAPL read from a fixture directory
 * with a counter that wraps, NVML loaded from tests/fake_nvml.c (built
 * beside this binary as libfakenvml.so) and from a library that does not
 * exist, and the <telemetry> element's round trip through the results file.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fsx.h"
#include "query.h"
#include "results.h"
#include "telemetry.h"

static char tmpdir[256];
static char fake_lib[512]; /* libfakenvml.so beside this binary */

static int make_tmpdir(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/breakeven-tel-XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int remove_tmpdir(void **state)
{
    char cmd[512];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

static void write_file(const char *path, const char *text)
{
    err e;
    if (fsx_write_atomic(path, text, strlen(text), &e) != BE_OK)
        fail_msg("%s", e.msg);
}

/* ---- pure functions ---- */

static void test_counter_delta(void **state)
{
    unsigned long long d = 99;
    (void)state;
    assert_int_equal(tel_counter_delta(100, 350, 0, &d), BE_OK);
    assert_int_equal(d, 250);
    assert_int_equal(tel_counter_delta(100, 350, 1000, &d), BE_OK);
    assert_int_equal(d, 250);
    /* wrapped past the top of a 1000-unit range: 900 → 1000 → 0 → 50 */
    assert_int_equal(tel_counter_delta(900, 50, 1000, &d), BE_OK);
    assert_int_equal(d, 150);
    /* a counter that went back without a range is no reading */
    assert_int_equal(tel_counter_delta(900, 50, 0, &d), BE_EFAIL);
    assert_int_equal(d, 0);
    /* values past the range cannot be counts of it */
    assert_int_equal(tel_counter_delta(1001, 50, 1000, &d), BE_EFAIL);
    assert_int_equal(tel_counter_delta(10, 1001, 1000, &d), BE_EFAIL);
    assert_int_equal(tel_counter_delta(7, 7, 0, &d), BE_OK);
    assert_int_equal(d, 0);
}

static void test_throttle_words(void **state)
{
    char buf[256];
    (void)state;
    tel_throttle_words(0, buf, sizeof buf);
    assert_string_equal(buf, "none");
    tel_throttle_words(0x4, buf, sizeof buf);
    assert_string_equal(buf, "sw-power-cap");
    tel_throttle_words(0x1 | 0x8 | 0x40, buf, sizeof buf);
    assert_string_equal(buf, "idle,hw-slowdown,hw-thermal");
    tel_throttle_words(0x2 | 0x10 | 0x20 | 0x80 | 0x100, buf, sizeof buf);
    assert_string_equal(buf, "applications-clocks,sync-boost,sw-thermal,hw-power-brake,"
                             "display-clocks");
    tel_throttle_words(0x4 | 0x200 | 0x1000, buf, sizeof buf);
    assert_string_equal(buf, "sw-power-cap,0x1200");
    tel_throttle_words(0x1000, buf, sizeof buf);
    assert_string_equal(buf, "0x1000");
    /* cut to a small buffer, still a string */
    tel_throttle_words(0x4 | 0x8, buf, 8);
    assert_true(strlen(buf) < 8);
}

static void test_throttling(void **state)
{
    static const unsigned long long yes[] = {0x4, 0x8, 0x20, 0x40, 0x80};
    static const unsigned long long no[] = {0x0, 0x1, 0x2, 0x10, 0x100, 0x1 | 0x2 | 0x10 | 0x100};
    size_t i;
    (void)state;
    for (i = 0; i < sizeof yes / sizeof yes[0]; i++) {
        assert_true(tel_throttling(yes[i]));
        assert_true(tel_throttling(yes[i] | 0x1));
    }
    for (i = 0; i < sizeof no / sizeof no[0]; i++)
        assert_false(tel_throttling(no[i]));
}

/* An NVML-like reading: clocks, power, temperature, reasons and the
 * energy counter in mJ at host time at. */
static tel_reading nvml_reading(double at, double sm, double power, double temp,
                                unsigned long long reasons, unsigned long long mj)
{
    tel_reading r;
    memset(&r, 0, sizeof r);
    r.kind = TEL_NVML;
    r.at = at;
    r.has_sm = r.has_mem = r.has_power = r.has_temp = r.has_throttle = r.has_energy = 1;
    r.sm_mhz = sm;
    r.mem_mhz = 2619;
    r.power_w = power;
    r.temp_c = temp;
    r.throttle = reasons;
    r.ncounters = 1;
    r.counter[0] = mj;
    r.joule_per_count = 1e-3;
    return r;
}

static void test_visits(void **state)
{
    tel_point t;
    tel_reading b, a;
    double j;
    (void)state;
    memset(&t, 0, sizeof t);

    /* first visit: 0.8 s, 120 J over 40 samples, not throttled */
    b = nvml_reading(10.0, 1980, 300, 40, 0x0, 1000000);
    a = nvml_reading(10.8, 1965, 650, 52, 0x0, 1120000);
    assert_int_equal(tel_energy_between(&b, &a, &j), BE_OK);
    assert_float_equal(j, 120.0, 1e-9);
    tel_visit(&t, &b, &a, 40);
    assert_int_equal(t.kind, TEL_NVML);
    assert_int_equal(t.visits, 1);
    assert_false(t.throttled);
    assert_false(t.has_energy); /* 0.8 s is too short to keep */
    assert_float_equal(t.energy_j, 120.0, 1e-9);
    assert_int_equal(t.energy_samples, 40);

    /* second visit, power-capped at the end: 1.9 s, but NVML's 0.1 s
     * steps ask for 1 s a visit */
    b = nvml_reading(20.0, 1980, 310, 45, 0x1, 2000000);
    a = nvml_reading(21.1, 1755, 700, 60, 0x4, 2150000);
    tel_visit(&t, &b, &a, 50);
    assert_true(t.throttled);
    assert_false(t.has_energy);
    assert_true(t.throttle[0] == 0x1);
    assert_true(t.throttle[1] == 0x4);

    /* third visit: the spans reach 3.2 s over 3 visits, the energy is kept */
    b = nvml_reading(30.0, 1980, 305, 44, 0x0, 3000000);
    a = nvml_reading(31.3, 1980, 660, 55, 0x0, 3090000);
    tel_visit(&t, &b, &a, 30);
    assert_true(t.has_energy);
    assert_float_equal(t.energy_j, 120.0 + 150.0 + 90.0, 1e-9);
    assert_float_equal(t.energy_span_s, 3.2, 1e-9);
    assert_int_equal(t.energy_samples, 120);
    assert_int_equal(t.energy_visits, 3);
    assert_int_equal(t.visits, 3);
    /* before: the first visit's; after: the latest visit's */
    assert_true(t.has_sm[0] && t.has_sm[1]);
    assert_float_equal(t.sm_mhz[0], 1980, 0);
    assert_float_equal(t.sm_mhz[1], 1980, 0);
    assert_float_equal(t.power_w[0], 300, 0);
    assert_float_equal(t.power_w[1], 660, 0);
    assert_float_equal(t.temp_c[1], 55, 0);
    /* the reasons stay OR-ed over the visits, and so does the flag */
    assert_true(t.throttle[1] == 0x4);
    assert_true(t.throttled);

    /* a short fourth visit: 3.4 s no longer covers 4 visits' steps */
    b = nvml_reading(40.0, 1980, 305, 44, 0x0, 4000000);
    a = nvml_reading(40.2, 1980, 660, 55, 0x0, 4010000);
    tel_visit(&t, &b, &a, 5);
    assert_false(t.has_energy);
}

/* RAPL's counter steps are short: a second over many visits is enough. */
static void test_visits_rapl(void **state)
{
    tel_point t;
    tel_reading b, a;
    int i;
    (void)state;
    memset(&t, 0, sizeof t);
    memset(&b, 0, sizeof b);
    b.kind = TEL_RAPL;
    b.has_energy = 1;
    b.ncounters = 1;
    b.range[0] = 1000000000;
    b.joule_per_count = 1e-6;
    a = b;
    for (i = 0; i < 5; i++) {
        b.at = i;
        b.counter[0] = 999000000;
        a.at = i + 0.21;
        a.counter[0] = 1000000; /* wrapped: 2 J */
        tel_visit(&t, &b, &a, 7);
        assert_int_equal(t.has_energy, i >= 4);
    }
    assert_float_equal(t.energy_j, 10.0, 1e-9);
    assert_float_equal(t.energy_span_s, 1.05, 1e-9);
    assert_int_equal(t.energy_samples, 35);
    assert_false(t.has_sm[0] || t.has_throttle[1] || t.throttled);
}

static void test_visit_without_energy(void **state)
{
    tel_point t;
    tel_reading b, a;
    (void)state;
    memset(&t, 0, sizeof t);
    /* a counter that went back (a driver reload) is not counted */
    b = nvml_reading(1.0, 1980, 300, 40, 0x0, 5000);
    a = nvml_reading(3.0, 1980, 300, 40, 0x0, 10);
    tel_visit(&t, &b, &a, 10);
    assert_int_equal(t.kind, TEL_NVML);
    assert_false(t.has_energy);
    assert_int_equal(t.energy_samples, 0);
    /* a reading without energy: the clocks are kept, no energy */
    b = nvml_reading(5.0, 1980, 300, 40, 0x0, 5000);
    a = nvml_reading(7.0, 1900, 300, 40, 0x0, 9000);
    a.has_energy = 0;
    a.has_temp = 0;
    tel_visit(&t, &b, &a, 10);
    assert_false(t.has_energy);
    assert_false(t.has_temp[1]);
    assert_float_equal(t.sm_mhz[1], 1900, 0);
    /* no source: nothing happens */
    memset(&b, 0, sizeof b);
    memset(&a, 0, sizeof a);
    memset(&t, 0, sizeof t);
    tel_visit(&t, &b, &a, 10);
    assert_int_equal(t.kind, TEL_NONE);
    assert_int_equal(t.visits, 0);
}

/* ---- RAPL from a fixture directory ---- */

static void rapl_domain(const char *root, const char *dir, const char *name, const char *energy,
                        const char *range)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", root, dir);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/%s/name", root, dir);
    write_file(path, name);
    snprintf(path, sizeof path, "%s/%s/energy_uj", root, dir);
    write_file(path, energy);
    snprintf(path, sizeof path, "%s/%s/max_energy_range_uj", root, dir);
    write_file(path, range);
}

static void test_rapl(void **state)
{
    char root[300], path[512];
    tel_source *s = NULL;
    tel_reading b, a;
    double j;
    err e;
    (void)state;
    snprintf(root, sizeof root, "%s/powercap", tmpdir);
    assert_int_equal(mkdir(root, 0755), 0);
    /* two packages, a core subdomain and a psys domain, which are not summed */
    rapl_domain(root, "intel-rapl:0", "package-0\n", "262143000000\n", "262143328850\n");
    rapl_domain(root, "intel-rapl:0:0", "core\n", "5\n", "262143328850\n");
    rapl_domain(root, "intel-rapl:1", "package-1\n", "1000000\n", "262143328850\n");
    rapl_domain(root, "intel-rapl:2", "psys\n", "1\n", "262143328850\n");

    assert_int_equal(tel_open_rapl(root, &s, &e), BE_OK);
    assert_non_null(s);
    assert_int_equal(tel_source_kind(s), TEL_RAPL);
    tel_read(s, &b);
    assert_true(b.has_energy);
    assert_int_equal(b.ncounters, 2);
    assert_false(b.has_sm || b.has_power || b.has_throttle);
    /* package 0 wraps: 328850 µJ to its top, then 671150 µJ; package 1
     * advances 2.5 J */
    snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", root);
    write_file(path, "671150\n");
    snprintf(path, sizeof path, "%s/intel-rapl:1/energy_uj", root);
    write_file(path, "3500000\n");
    tel_read(s, &a);
    assert_int_equal(tel_energy_between(&b, &a, &j), BE_OK);
    assert_float_equal(j, 1.0 + 2.5, 1e-9);
    tel_close(s);
}

static void test_rapl_absent(void **state)
{
    char root[300], path[512];
    tel_source *s = (tel_source *)&s;
    err e;
    (void)state;
    /* no such directory */
    snprintf(root, sizeof root, "%s/no-powercap", tmpdir);
    assert_int_equal(tel_open_rapl(root, &s, &e), BE_OK);
    assert_null(s);
    /* a package whose counter cannot be read (a directory in its place),
     * as /sys shows it to a user who is not root */
    snprintf(root, sizeof root, "%s/powercap-locked", tmpdir);
    assert_int_equal(mkdir(root, 0755), 0);
    snprintf(path, sizeof path, "%s/intel-rapl:0", root);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/intel-rapl:0/name", root);
    write_file(path, "package-0\n");
    snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", root);
    assert_int_equal(mkdir(path, 0755), 0);
    snprintf(path, sizeof path, "%s/intel-rapl:0/max_energy_range_uj", root);
    write_file(path, "262143328850\n");
    s = (tel_source *)&s;
    assert_int_equal(tel_open_rapl(root, &s, &e), BE_OK);
    assert_null(s);
}

/* tel_rapl_why in the child of a fork, as user nobody when this process is
 * root (root reads any counter): its word's index in words, 9 for another. */
static int why_as_user(const char *root)
{
    static const char *const words[] = {"absent", "root-only", "unreadable"};
    int status = 0, i;
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        const char *why;
        if (geteuid() == 0 && setuid(65534) != 0)
            _exit(8);
        why = tel_rapl_why(root);
        for (i = 0; i < 3; i++)
            if (strcmp(why, words[i]) == 0)
                _exit(i);
        _exit(9);
    }
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    return WEXITSTATUS(status);
}

/* Why there is no RAPL source, in the word the CPU's results keep: no
 * powercap at all, or none with a package, is absent; a package whose
 * counter is there but this user may not read (Linux has made it root's
 * alone since CVE-2020-8694) is root-only; one that cannot be read for
 * another reason (a directory in its place, test_rapl_absent's) is
 * unreadable. */
static void test_rapl_why(void **state)
{
    char root[300], path[512];
    (void)state;
    snprintf(root, sizeof root, "%s/no-powercap", tmpdir);
    assert_string_equal(tel_rapl_why(root), "absent");
    snprintf(root, sizeof root, "%s/powercap-psys", tmpdir);
    assert_int_equal(mkdir(root, 0755), 0);
    rapl_domain(root, "intel-rapl:0", "psys\n", "1\n", "262143328850\n");
    assert_string_equal(tel_rapl_why(root), "absent");
    snprintf(root, sizeof root, "%s/powercap-root", tmpdir);
    assert_int_equal(mkdir(root, 0755), 0);
    rapl_domain(root, "intel-rapl:0", "package-0\n", "1\n", "262143328850\n");
    snprintf(path, sizeof path, "%s/intel-rapl:0/energy_uj", root);
    assert_int_equal(chmod(path, 0), 0);
    /* the tree must be searchable by the user the child becomes */
    assert_int_equal(chmod(tmpdir, 0755), 0);
    assert_int_equal(why_as_user(root), 1);
    snprintf(root, sizeof root, "%s/powercap-locked", tmpdir);
    assert_string_equal(tel_rapl_why(root), "unreadable");
}

/* ---- NVML ---- */

static device_info gpu(const char *vendor, const char *bus)
{
    device_info d;
    memset(&d, 0, sizeof d);
    snprintf(d.id, sizeof d.id, "cl:0.0");
    snprintf(d.kind, sizeof d.kind, "opencl");
    snprintf(d.vendor, sizeof d.vendor, "%s", vendor);
    if (bus)
        devinfo_prop_add(&d, "pci_bus_id", "%s", bus);
    return d;
}

static void test_nvml_absent(void **state)
{
    device_info d = gpu("NVIDIA Corporation", NULL);
    tel_source *s = (tel_source *)&s;
    err e;
    (void)state;
    assert_int_equal(tel_open_nvml("libbreakeven-no-such-nvml.so.1", &d, &s, &e), BE_OK);
    assert_null(s);
    tel_close(s); /* closing nothing is fine */
    /* no source reads as nothing */
    {
        tel_reading r;
        tel_read(NULL, &r);
        assert_int_equal(r.kind, TEL_NONE);
        assert_false(r.has_energy);
    }
}

static void test_nvml_fake(void **state)
{
    device_info d;
    tel_source *s = NULL;
    tel_reading b, a;
    double j;
    err e;
    (void)state;

    /* by PCI address, in the spelling OpenCL gives (NVML wants 8 digits) */
    d = gpu("NVIDIA Corporation", "0000:65:00.0");
    assert_int_equal(tel_open_nvml(fake_lib, &d, &s, &e), BE_OK);
    assert_non_null(s);
    assert_int_equal(tel_source_kind(s), TEL_NVML);
    tel_read(s, &b);
    tel_read(s, &a);
    assert_true(b.has_sm && b.has_mem && b.has_power && b.has_throttle && b.has_energy);
    assert_false(b.has_temp); /* the fake has no sensor */
    assert_float_equal(b.sm_mhz, 1980, 0);
    assert_float_equal(b.mem_mhz, 2619, 0);
    assert_float_equal(b.power_w, 312.5, 1e-12);
    assert_true(b.throttle == 0x4); /* through the old entry point's name */
    assert_int_equal(tel_energy_between(&b, &a, &j), BE_OK);
    assert_float_equal(j, 1.234, 1e-12);
    tel_close(s);

    /* another address is another device: none */
    d = gpu("NVIDIA Corporation", "0000:17:00.0");
    s = (tel_source *)&s;
    assert_int_equal(tel_open_nvml(fake_lib, &d, &s, &e), BE_OK);
    assert_null(s);

    /* no address: the only device of an NVIDIA vendor */
    d = gpu("NVIDIA Corporation", NULL);
    assert_int_equal(tel_open_nvml(fake_lib, &d, &s, &e), BE_OK);
    assert_non_null(s);
    tel_close(s);

    /* never another vendor's device, whatever NVML has */
    d = gpu("Portable Computing Language", NULL);
    s = (tel_source *)&s;
    assert_int_equal(tel_open_nvml(fake_lib, &d, &s, &e), BE_OK);
    assert_null(s);
}

/* ---- the results file ---- */

/* tests/hostile/base.xml, a small valid file with a CPU and an OpenCL
 * device, 5 samples a point. */
static results *load_base(void)
{
    results *r = NULL;
    err e;
    if (results_load("tests/hostile/base.xml", &r, &e) != BE_OK)
        fail_msg("%s", e.msg);
    return r;
}

static void test_round_trip(void **state)
{
    results *r = load_base(), *back = NULL;
    tel_reading b = nvml_reading(1.0, 1980, 310.25, 41, 0x1, 1000),
                a = nvml_reading(2.5, 1755, 699.5, 63, 0x4 | 0x40, 901000);
    char path[512];
    err e;
    int i, k;
    (void)state;
    /* points 0 and 1 of base.xml: cpu and cl:0.0, inference, hidden 64, batch 16 */
    assert_string_equal(r->points[0].device, "cpu");
    assert_string_equal(r->points[1].device, "cl:0.0");
    r->points[0].tel.kind = TEL_RAPL;
    r->points[0].tel.visits = 1;
    r->points[0].tel.has_energy = 1;
    r->points[0].tel.energy_j = 12.5;
    r->points[0].tel.energy_span_s = 1.25;
    r->points[0].tel.energy_samples = 3;
    r->points[0].tel.energy_visits = 1;
    tel_visit(&r->points[1].tel, &b, &a, 4);
    assert_true(r->points[1].tel.throttled);
    assert_true(r->points[1].tel.has_energy);
    assert_float_equal(r->points[1].tel.energy_j, 900.0, 1e-9);

    snprintf(path, sizeof path, "%s/tel.xml", tmpdir);
    assert_int_equal(results_save(r, NULL, path, &e), BE_OK);
    if (results_load(path, &back, &e) != BE_OK)
        fail_msg("%s", e.msg);
    assert_int_equal(back->npoints, r->npoints);
    for (i = 0; i < r->npoints; i++) {
        const tel_point *x = &r->points[i].tel, *y = &back->points[i].tel;
        assert_string_equal(back->points[i].device, r->points[i].device);
        assert_int_equal(back->points[i].batch, r->points[i].batch);
        assert_int_equal(y->kind, x->kind);
        assert_int_equal(y->has_energy, x->has_energy);
        assert_true(y->energy_j == x->energy_j);
        assert_true(y->energy_span_s == x->energy_span_s);
        assert_int_equal(y->energy_samples, x->energy_samples);
        assert_int_equal(y->energy_visits, x->energy_visits);
        assert_int_equal(y->throttled, x->throttled);
        for (k = 0; k < 2; k++) {
            assert_int_equal(y->has_sm[k], x->has_sm[k]);
            assert_int_equal(y->has_mem[k], x->has_mem[k]);
            assert_int_equal(y->has_power[k], x->has_power[k]);
            assert_int_equal(y->has_temp[k], x->has_temp[k]);
            assert_int_equal(y->has_throttle[k], x->has_throttle[k]);
            assert_true(y->sm_mhz[k] == x->sm_mhz[k]);
            assert_true(y->mem_mhz[k] == x->mem_mhz[k]);
            assert_true(y->power_w[k] == x->power_w[k]);
            assert_true(y->temp_c[k] == x->temp_c[k]);
            assert_true(y->throttle[k] == x->throttle[k]);
        }
    }
    assert_int_equal(back->points[1].tel.kind, TEL_NVML);
    assert_true(back->points[1].tel.throttle[1] == (0x4 | 0x40));
    assert_int_equal(back->points[2].tel.kind, TEL_NONE);
    results_free(r);
    results_free(back);
}

/* Points that recorded no telemetry write no <telemetry>; one whose
 * energy spans less than TEL_MIN_ENERGY_SPAN writes it without energy. */
static void test_absent_element(void **state)
{
    results *r = load_base();
    char path[512], *buf = NULL;
    const char *first;
    size_t n;
    err e;
    (void)state;
    r->points[0].tel.kind = TEL_RAPL;
    r->points[0].tel.energy_j = 3.0;
    r->points[0].tel.energy_span_s = 0.5;
    r->points[0].tel.energy_samples = 1;
    snprintf(path, sizeof path, "%s/none.xml", tmpdir);
    assert_int_equal(results_save(r, NULL, path, &e), BE_OK);
    assert_int_equal(fsx_read_all(path, &buf, &n, &e), BE_OK);
    first = strstr(buf, "<telemetry");
    assert_non_null(first);
    assert_non_null(strstr(buf, "<telemetry source=\"rapl\"/>"));
    assert_null(strstr(first + 1, "<telemetry"));
    assert_null(strstr(buf, "energy-j"));
    free(buf);
    results_free(r);
}

/* Energy per step e on point i of r (1 J over a second of samples...). */
static void set_energy(results *r, int i, double per_step)
{
    tel_point *t = &r->points[i].tel;
    memset(t, 0, sizeof *t);
    t->kind = strcmp(r->points[i].device, "cpu") == 0 ? TEL_RAPL : TEL_NVML;
    t->visits = t->energy_visits = 1;
    t->has_energy = 1;
    t->energy_samples = 5;
    t->energy_span_s = 1.5;
    t->energy_j = 5 * per_step;
}

static void test_energy_cross(void **state)
{
    results *r = load_base();
    fit_hidden_cross h;
    (void)state;
    /* base.xml: 0 cpu b16, 1 cl b16, 2 cpu b32, 3 cl b32 (hidden 64) */
    assert_true(strcmp(r->points[0].device, "cpu") == 0 && r->points[0].batch == 16);
    assert_true(strcmp(r->points[1].device, "cl:0.0") == 0 && r->points[1].batch == 16);
    assert_true(strcmp(r->points[2].device, "cpu") == 0 && r->points[2].batch == 32);
    assert_true(strcmp(r->points[3].device, "cl:0.0") == 0 && r->points[3].batch == 32);
    assert_true(q_energy(&r->points[0]) < 0.0);
    assert_false(q_has_energy(r, NULL, WL_INFERENCE));
    assert_int_equal(q_energy_cross(r, "cpu", "cl:0.0", WL_INFERENCE, 64, &h), 0);
    assert_int_equal(h.kind, CROSS_UNKNOWN);
    set_energy(r, 0, 1.0);
    set_energy(r, 1, 2.0);
    set_energy(r, 2, 2.0);
    set_energy(r, 3, 1.0);
    assert_float_equal(q_energy(&r->points[1]), 2.0, 1e-12);
    assert_true(q_has_energy(r, "cl:0.0", WL_INFERENCE));
    assert_false(q_has_energy(r, "cl:0.0", WL_TRAINING));
    /* twice the base's at 16, half at 32: log-log midway, 16·√2 */
    assert_int_equal(q_energy_cross(r, "cpu", "cl:0.0", WL_INFERENCE, 64, &h), 2);
    assert_int_equal(h.kind, CROSS_IN_RANGE);
    assert_true(fabs(h.batch - 16.0 * sqrt(2.0)) < 1e-9);
    assert_true(h.flops > r->points[0].flops_per_layer && h.flops < r->points[2].flops_per_layer);
    /* the other way round: never */
    assert_int_equal(q_energy_cross(r, "cl:0.0", "cpu", WL_INFERENCE, 64, &h), 2);
    assert_int_equal(h.kind, CROSS_NEVER);
    /* less at both batches: always */
    set_energy(r, 1, 0.5);
    assert_int_equal(q_energy_cross(r, "cpu", "cl:0.0", WL_INFERENCE, 64, &h), 2);
    assert_int_equal(h.kind, CROSS_ALWAYS);
    /* energy too short to keep does not count */
    r->points[3].tel.has_energy = 0;
    assert_int_equal(q_energy_cross(r, "cpu", "cl:0.0", WL_INFERENCE, 64, &h), 1);
    /* nor does a point whose time is not usable */
    r->points[1].status = PT_SKIPPED;
    assert_true(q_energy(&r->points[1]) < 0.0);
    assert_int_equal(q_energy_cross(r, "cpu", "cl:0.0", WL_INFERENCE, 64, &h), 0);
    results_free(r);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counter_delta),  cmocka_unit_test(test_throttle_words),
        cmocka_unit_test(test_throttling),     cmocka_unit_test(test_visits),
        cmocka_unit_test(test_visits_rapl),    cmocka_unit_test(test_visit_without_energy),
        cmocka_unit_test(test_rapl),           cmocka_unit_test(test_rapl_absent),
        cmocka_unit_test(test_rapl_why),       cmocka_unit_test(test_nvml_absent),
        cmocka_unit_test(test_nvml_fake),      cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_absent_element), cmocka_unit_test(test_energy_cross),
    };
    const char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
    if (slash)
        snprintf(fake_lib, sizeof fake_lib, "%.*s/libfakenvml.so", (int)(slash - argv[0]), argv[0]);
    else
        snprintf(fake_lib, sizeof fake_lib, "./libfakenvml.so");
    return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}
