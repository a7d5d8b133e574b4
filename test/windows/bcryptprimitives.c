/*
 * bcryptprimitives.dll's ProcessPrng, which Windows has and Wine 8.0 lacks (its prefix has no bcryptprimitives.dll):
 * Rust's standard library draws its random numbers from it on Windows, so a Rust library built for Windows (jest's
 * module resolver, unrs-resolver's .node) fails to load under Wine 8.0 ("Module not found") without it. test/windows/host.mjs builds it with
 * Debian's MinGW-w64 into the test's Wine prefix only. ProcessPrng always succeeds on Windows; so does this.
 */
#include <windows.h>
#include <bcrypt.h>

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
    if (BCryptGenRandom(NULL, data, chunk, BCRYPT_USE_SYSTEM_PREFERRED_RNG) != 0) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
