"""This host's network interfaces and their IP addresses, asked of the kernel over rtnetlink.

The answer is the one ``psutil.net_if_addrs()`` gives (which calls glibc's getifaddrs(), which
asks rtnetlink the same two questions): the interfaces in its order (those with an IPv4 address,
then IPv6, then the rest with a link-layer address), IPv4 names as their labels (``eth0:1``),
link-local IPv6 addresses with their ``%interface`` scope. Importing psutil for it was a tenth of
``check``'s start-up. ``None`` when rtnetlink cannot be asked here (the caller then uses psutil).
"""

from __future__ import annotations

import os
import struct

import _socket as socket  # the C module: the socket wrapper's enums and selectors cost more than the whole ask

# linux/netlink.h, linux/rtnetlink.h, linux/if_link.h, linux/if_addr.h
_NLMSG_ERROR, _NLMSG_DONE = 2, 3
_NLM_F_REQUEST, _NLM_F_DUMP = 0x1, 0x300
_RTM_NEWLINK, _RTM_GETLINK, _RTM_NEWADDR, _RTM_GETADDR = 16, 18, 20, 22
_IFLA_ADDRESS, _IFLA_IFNAME = 1, 3
_IFA_ADDRESS, _IFA_LOCAL, _IFA_LABEL = 1, 2, 3
_NLMSG = struct.Struct("=IHHII")  # nlmsghdr: length, type, flags, sequence, port id
_RTA = struct.Struct("=HH")  # rtattr: length, type
_IFINFO = struct.Struct("=BxHiII")  # ifinfomsg: family, type, index, flags, change
_IFADDR = struct.Struct("=BBBBI")  # ifaddrmsg: family, prefix length, flags, scope, index


def interface_addresses() -> dict[str, list[str]] | None:
    """IPv4 and IPv6 addresses by interface name, as the env probe keeps them from psutil (sorted)."""
    try:
        sock = socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, socket.NETLINK_ROUTE)
        try:
            sock.settimeout(5.0)  # the kernel answers at once; never wait on it for ever
            sock.bind((0, 0))
            links = _dump(sock, _RTM_GETLINK, 1)
            addrs = _dump(sock, _RTM_GETADDR, 2)
        finally:
            sock.close()
        return _by_interface(links, addrs)
    except (OSError, AttributeError, ValueError, struct.error):  # no AF_NETLINK (another OS), a sandbox, a reply not understood
        return None


def _by_interface(links: list[tuple[int, bytes]], addrs: list[tuple[int, bytes]]) -> dict[str, list[str]]:
    """getifaddrs()'s entries as psutil orders them (IPv4, IPv6, link layer; the kernel's order within each)."""
    names: dict[int, str] = {}
    packet: list[str] = []  # links with a link-layer address: an AF_PACKET entry each
    for kind, body in links:
        if kind != _RTM_NEWLINK:
            continue
        index = _IFINFO.unpack_from(body)[2]
        attrs = _attributes(body, _IFINFO.size)
        names[index] = name = _text(attrs.get(_IFLA_IFNAME, b""))
        if attrs.get(_IFLA_ADDRESS):
            packet.append(name)
    sizes = {socket.AF_INET: 4, socket.AF_INET6: 16}
    by_family: dict[int, list[tuple[str, str]]] = {socket.AF_INET: [], socket.AF_INET6: []}
    for kind, body in addrs:
        if kind != _RTM_NEWADDR:
            continue
        family, _, _, _, index = _IFADDR.unpack_from(body)
        attrs = _attributes(body, _IFADDR.size)
        raw = attrs.get(_IFA_LOCAL, attrs.get(_IFA_ADDRESS))  # the local end of a point-to-point link, as getifaddrs
        if family not in by_family or raw is None:
            continue
        if len(raw) != sizes[family]:
            raw = bytes(sizes[family])  # getifaddrs copies only an address of the family's size
        name = _text(attrs[_IFA_LABEL]) if _IFA_LABEL in attrs else names.get(index)
        if name is None:
            continue
        address = socket.inet_ntop(family, raw)
        if family == socket.AF_INET6 and (raw[0] == 0xFE and raw[1] & 0xC0 == 0x80 or raw[0] == 0xFF and raw[1] & 0x0F == 0x02):
            address += f"%{names.get(index, index)}"  # link-local: getnameinfo names the scope, the interface's index
        by_family[family].append((name, address))
    found: dict[str, list[str]] = {}
    for name, address in (*by_family[socket.AF_INET], *by_family[socket.AF_INET6]):
        found.setdefault(name, []).append(address)
    for name in packet:
        found.setdefault(name, [])
    return {name: sorted(addresses) for name, addresses in found.items()}


def _text(raw: bytes) -> str:
    return raw.split(b"\0", 1)[0].decode("utf-8", "surrogateescape")


def _dump(sock: socket.socket, request: int, sequence: int) -> list[tuple[int, bytes]]:
    """Every message of one rtnetlink dump: (type, body after the netlink header)."""
    body = struct.pack("=B3x", socket.AF_UNSPEC)  # rtgenmsg: all families
    sock.send(_NLMSG.pack(_NLMSG.size + len(body), request, _NLM_F_REQUEST | _NLM_F_DUMP, sequence, 0) + body)
    port = sock.getsockname()[0]
    messages: list[tuple[int, bytes]] = []
    while True:
        data = sock.recv(1 << 16)
        if not data:
            raise OSError("rtnetlink closed the dump")
        offset = 0
        while offset + _NLMSG.size <= len(data):
            length, kind, _, seq, pid = _NLMSG.unpack_from(data, offset)
            if length < _NLMSG.size:
                raise OSError("a malformed rtnetlink message")
            if seq == sequence and pid == port:
                if kind == _NLMSG_DONE:
                    return messages
                if kind == _NLMSG_ERROR:
                    error = -struct.unpack_from("=i", data, offset + _NLMSG.size)[0]
                    raise OSError(error, os.strerror(error))
                messages.append((kind, data[offset + _NLMSG.size : offset + length]))
            offset += (length + 3) & ~3


def _attributes(body: bytes, start: int) -> dict[int, bytes]:
    """A message's rtattrs by type (the first of each type)."""
    attrs: dict[int, bytes] = {}
    offset = start
    while offset + _RTA.size <= len(body):
        length, kind = _RTA.unpack_from(body, offset)
        if length < _RTA.size:
            break
        attrs.setdefault(kind, body[offset + _RTA.size : offset + length])
        offset += (length + 3) & ~3
    return attrs
