#include <linux/videodev2.h>
#include <libv4l2.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

/* VIDIOC_* request numbers are _IOR/_IOWR macros, which Swift cannot import. */
static inline unsigned long slate_vidioc_querycap(void) { return VIDIOC_QUERYCAP; }
static inline unsigned long slate_vidioc_enum_fmt(void) { return VIDIOC_ENUM_FMT; }
static inline unsigned long slate_vidioc_enum_framesizes(void) { return VIDIOC_ENUM_FRAMESIZES; }
static inline unsigned long slate_vidioc_enum_frameintervals(void) { return VIDIOC_ENUM_FRAMEINTERVALS; }
static inline unsigned long slate_vidioc_g_fmt(void) { return VIDIOC_G_FMT; }
static inline unsigned long slate_vidioc_s_fmt(void) { return VIDIOC_S_FMT; }
static inline unsigned long slate_vidioc_g_parm(void) { return VIDIOC_G_PARM; }
static inline unsigned long slate_vidioc_s_parm(void) { return VIDIOC_S_PARM; }
static inline unsigned long slate_vidioc_reqbufs(void) { return VIDIOC_REQBUFS; }
static inline unsigned long slate_vidioc_querybuf(void) { return VIDIOC_QUERYBUF; }
static inline unsigned long slate_vidioc_qbuf(void) { return VIDIOC_QBUF; }
static inline unsigned long slate_vidioc_dqbuf(void) { return VIDIOC_DQBUF; }
static inline unsigned long slate_vidioc_streamon(void) { return VIDIOC_STREAMON; }
static inline unsigned long slate_vidioc_streamoff(void) { return VIDIOC_STREAMOFF; }
static inline unsigned long slate_vidioc_queryctrl(void) { return VIDIOC_QUERYCTRL; }
static inline unsigned long slate_vidioc_query_ext_ctrl(void) { return VIDIOC_QUERY_EXT_CTRL; }
static inline unsigned long slate_vidioc_querymenu(void) { return VIDIOC_QUERYMENU; }
static inline unsigned long slate_vidioc_g_ctrl(void) { return VIDIOC_G_CTRL; }
static inline unsigned long slate_vidioc_s_ctrl(void) { return VIDIOC_S_CTRL; }
static inline unsigned long slate_vidioc_g_ext_ctrls(void) { return VIDIOC_G_EXT_CTRLS; }
static inline unsigned long slate_vidioc_s_ext_ctrls(void) { return VIDIOC_S_EXT_CTRLS; }
static inline unsigned long slate_vidioc_subscribe_event(void) { return VIDIOC_SUBSCRIBE_EVENT; }
static inline unsigned long slate_vidioc_dqevent(void) { return VIDIOC_DQEVENT; }

/* ioctl and v4l2_ioctl are variadic, which Swift cannot call. slate_ioctl is the
   kernel's own, for before libv4l2 wraps the descriptor (v4l2_fd_open). */
static inline int slate_ioctl(int fd, unsigned long request, void *arg) { return ioctl(fd, request, arg); }
static inline int slate_v4l2_ioctl(int fd, unsigned long request, void *arg) { return v4l2_ioctl(fd, request, arg); }

/* v4l2_ext_control and v4l2_querymenu are packed structs: read and write them here.
   wide: the control is V4L2_CTRL_TYPE_INTEGER64 (value64), else a 32-bit value. */
static inline int slate_v4l2_get_control(int fd, __u32 id, int wide, __s64 *value) {
    struct v4l2_ext_control control = {0};
    struct v4l2_ext_controls controls = {0};
    control.id = id;
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &control;
    int status = v4l2_ioctl(fd, VIDIOC_G_EXT_CTRLS, &controls);
    if (status == 0) *value = wide ? control.value64 : control.value;
    return status;
}

static inline int slate_v4l2_set_control(int fd, __u32 id, int wide, __s64 value) {
    struct v4l2_ext_control control = {0};
    struct v4l2_ext_controls controls = {0};
    control.id = id;
    if (wide) control.value64 = value; else control.value = (__s32)value;
    controls.which = V4L2_CTRL_WHICH_CUR_VAL;
    controls.count = 1;
    controls.controls = &control;
    return v4l2_ioctl(fd, VIDIOC_S_EXT_CTRLS, &controls);
}

/* One menu entry: its name (menus) or value (integer menus). */
static inline int slate_v4l2_querymenu(int fd, __u32 id, __u32 index, char name[32], __s64 *value) {
    struct v4l2_querymenu menu = {0};
    menu.id = id;
    menu.index = index;
    int status = v4l2_ioctl(fd, VIDIOC_QUERYMENU, &menu);
    if (status == 0) {
        for (int i = 0; i < 32; i++) name[i] = (char)menu.name[i];
        name[31] = 0;
        *value = menu.value;
    }
    return status;
}

/* An event as VIDIOC_DQEVENT gives it; for a control event (V4L2_EVENT_CTRL) the
   control's fields, its value read by type: value64 for a 64-bit control, the
   32-bit value otherwise (the kernel leaves the other half undefined). */
struct slate_control_event {
    __u32 type;
    __u32 id;
    __u32 changes;
    __u32 control_type;
    __s64 value;
    __u32 flags;
    __s32 minimum;
    __s32 maximum;
    __s32 step;
    __s32 default_value;
    __s64 seconds;
    __s64 nanoseconds;
};

static inline int slate_v4l2_dequeue_event(int fd, struct slate_control_event *out) {
    struct v4l2_event event = {0};
    int status = v4l2_ioctl(fd, VIDIOC_DQEVENT, &event);
    if (status != 0) return status;
    *out = (struct slate_control_event){0};
    out->type = event.type;
    out->id = event.id;
    out->seconds = event.timestamp.tv_sec;
    out->nanoseconds = event.timestamp.tv_nsec;
    if (event.type == V4L2_EVENT_CTRL) {
        out->changes = event.u.ctrl.changes;
        out->control_type = event.u.ctrl.type;
        out->value = event.u.ctrl.type == V4L2_CTRL_TYPE_INTEGER64 ? event.u.ctrl.value64 : event.u.ctrl.value;
        out->flags = event.u.ctrl.flags;
        out->minimum = event.u.ctrl.minimum;
        out->maximum = event.u.ctrl.maximum;
        out->step = event.u.ctrl.step;
        out->default_value = event.u.ctrl.default_value;
    }
    return status;
}
