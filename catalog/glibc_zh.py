"""glibc's messages as a zh_CN locale prints them, for the engine to read as their English originals.

A shell, coreutils, the dynamic loader or a C library on a Chinese host reports an OS error or a library it cannot
load in Chinese ("mkdir: 无法创建目录 “/ckpt”: 设备上没有空间", "libhccl.so: 无法打开共享对象文件: 没有那个文件或目录").
The texts are the msgstrs of glibc's po/zh_CN.po for the msgids of sysdeps/gnu/errlist.h (strerror) and elf/dl-load.c.
"""

SOURCE = "https://github.com/bminor/glibc/blob/019d850902a34eb68cd83e3edd8bb19f4aafb58c/po/zh_CN.po"

# strerror's texts, zh_CN -> C locale. EACCES's "权限不够" as bash prints it ("bash: ./run.sh: 权限不够").
STRERROR = {"设备上没有空间": "No space left on device", "超出磁盘限额": "Disk quota exceeded",
            # ENFILE before EMFILE: the system-wide text holds the per-process one
            "系统中打开的文件过多": "Too many open files in system", "打开的文件过多": "Too many open files",
            "地址已在使用": "Address already in use", "只读文件系统": "Read-only file system", "无法分配内存": "Cannot allocate memory",
            "权限不够": "Permission denied",
            # the other errno texts a training host prints (a path, a socket, a device, a name lookup), as the same po
            # translates them (sysdeps/gnu/errlist.h; gai_strerror's sysdeps/posix/gai_strerror-strs.h)
            "没有那个文件或目录": "No such file or directory", "不允许的操作": "Operation not permitted",
            "输入/输出错误": "Input/output error", "设备或资源忙": "Device or resource busy", "断开的管道": "Broken pipe",
            "资源暂时不可用": "Resource temporarily unavailable", "无法指定被请求的地址": "Cannot assign requested address",
            "网络不可达": "Network is unreachable", "连接被对方重设": "Connection reset by peer", "连接超时": "Connection timed out",
            "拒绝连接": "Connection refused", "没有到主机的路由": "No route to host", "过旧的文件控柄": "Stale file handle",
            "内存分页有硬件错误": "Memory page has hardware error", "域名解析暂时失败": "Temporary failure in name resolution",
            "未知的名称或服务": "Name or service not known", "可执行文件格式错误": "Exec format error"}

# bash's own texts in its po/zh_CN.po (shell.c / execute_cmd.c): a command it cannot find, a script whose #! line names no
# interpreter (a CRLF line end), a binary it cannot run. Read as the C-locale text like the strerror texts above.
BASH = {"未找到命令": "command not found", "错误的解释器": "bad interpreter", "无法执行二进制文件": "cannot execute binary file"}
BASH_SOURCE = "https://github.com/bminor/bash/blob/bash-5.2/po/zh_CN.po"

# The loader's "cannot open shared object file" (elf/dl-load.c).
CANNOT_OPEN_SHARED = "无法打开共享对象文件"

# The loader's own texts (elf/dl-load.c, elf/dl-catch.c), read as the C-locale twins like the strerror texts above, so
# "libhccl.so: 无法打开共享对象文件: 没有那个文件或目录" reaches what "libhccl.so: cannot open shared object file: No such
# file or directory" reaches.
LOADER = {CANNOT_OPEN_SHARED: "cannot open shared object file", "载入共享库时出错": "error while loading shared libraries"}
