#pragma once
// The single-head attention program the attention unit tests share.

namespace rubick::test {

/// Six statements of softmax attention; sizes L, S, D and Dv left to the test.
inline const char* kAttentionSingleHead = R"(
def attention(int8(L,D) Q, int8(S,D) K, int8(S,Dv) V) -> (O) {
    Sc(i,j) +=! Q(i,d) * K(j,d)
    mx(i) max=! Sc(i,j)
    E(i,j) = exp(Sc(i,j) - mx(i))
    sm(i) +=! E(i,j)
    U(i,e) +=! E(i,j) * V(j,e)
    O(i,e) = U(i,e) / sm(i)
})";

} // namespace rubick::test
