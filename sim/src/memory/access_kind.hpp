// What an access does to memory: the words of findings and the race shadow tell these apart too.
#pragma once
#include <cstdint>

namespace sim::memory {

enum class Access : uint8_t { read, write, atomic };  // atomic: a read-modify-write

}  // namespace sim::memory
