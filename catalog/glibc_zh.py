"""glibc's messages as a zh_CN locale prints them, for the engine to read as their English originals.

A shell, coreutils, the dynamic loader or a C library on a Chinese host reports an OS error or a library it cannot
load in Chinese ("mkdir: 无法创建目录 “/ckpt”: 设备上没有空间", "libhccl.so: 无法打开共享对象文件: 没有那个文件或目录").
The texts are the msgstrs of glibc's po/zh_CN.po for the msgids of sysdeps/gnu/errlist.h (strerror) and elf/dl-load.c.
"""

SOURCE = "https://github.com/bminor/glibc/blob/019d850902a34eb68cd83e3edd8bb19f4aafb58c/po/zh_CN.po"

# strerror's texts, zh_CN -> C locale. EACCES's "权限不够" as bash prints it ("bash: ./run.sh: 权限不够").
STRERROR = {"设备上没有空间": "No space left on device", "超出磁盘限额": "Disk quota exceeded", "打开的文件过多": "Too many open files",
            "地址已在使用": "Address already in use", "只读文件系统": "Read-only file system", "无法分配内存": "Cannot allocate memory",
            "权限不够": "Permission denied"}

# The loader's "cannot open shared object file" (elf/dl-load.c).
CANNOT_OPEN_SHARED = "无法打开共享对象文件"
