/*
 * fake_nvml.c — a stand-in for libnvidia-ml.so.1 that test_telemetry loads
 * through telemetry.c's dlopen path: one device, at PCI address
 * 00000000:65:00.0 (NVML's v2 spelling only), fixed readings, and an energy
 * counter that advances 1234 mJ at every reading.  The entry points carry
 * NVML's names and C signatures (return code int, 0 = success).
 */
#include <string.h>

/* the exported entry points, declared for -Wmissing-prototypes */
int nvmlInit_v2(void);
int nvmlShutdown(void);
int nvmlDeviceGetCount_v2(unsigned int *count);
int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void **dev);
int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev);
int nvmlDeviceGetClockInfo(void *dev, int type, unsigned int *mhz);
int nvmlDeviceGetPowerUsage(void *dev, unsigned int *mw);
int nvmlDeviceGetTemperature(void *dev, int sensor, unsigned int *c);
int nvmlDeviceGetCurrentClocksThrottleReasons(void *dev, unsigned long long *reasons);
int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj);

#define NOT_FOUND 6
#define INVALID 2

static int the_device;

int nvmlInit_v2(void)
{
    return 0;
}
int nvmlShutdown(void)
{
    return 0;
}

int nvmlDeviceGetCount_v2(unsigned int *count)
{
    *count = 1;
    return 0;
}

int nvmlDeviceGetHandleByIndex_v2(unsigned int index, void **dev)
{
    if (index != 0)
        return INVALID;
    *dev = &the_device;
    return 0;
}

int nvmlDeviceGetHandleByPciBusId_v2(const char *bus, void **dev)
{
    if (strcmp(bus, "00000000:65:00.0") != 0)
        return NOT_FOUND;
    *dev = &the_device;
    return 0;
}

int nvmlDeviceGetClockInfo(void *dev, int type, unsigned int *mhz)
{
    if (dev != &the_device || (type != 1 && type != 2))
        return INVALID;
    *mhz = type == 1 ? 1980 : 2619;
    return 0;
}

int nvmlDeviceGetPowerUsage(void *dev, unsigned int *mw)
{
    *mw = 312500;
    return dev == &the_device ? 0 : INVALID;
}

/* no temperature sensor: the field must go unrecorded */
int nvmlDeviceGetTemperature(void *dev, int sensor, unsigned int *c)
{
    (void)dev;
    (void)sensor;
    (void)c;
    return 3; /* NVML_ERROR_NOT_SUPPORTED */
}

/* only the pre-12.2 name: telemetry.c must fall back to it */
int nvmlDeviceGetCurrentClocksThrottleReasons(void *dev, unsigned long long *reasons)
{
    *reasons = 0x4; /* SwPowerCap */
    return dev == &the_device ? 0 : INVALID;
}

int nvmlDeviceGetTotalEnergyConsumption(void *dev, unsigned long long *mj)
{
    static unsigned long long counter = 5000000;
    counter += 1234;
    *mj = counter;
    return dev == &the_device ? 0 : INVALID;
}
