"""A classic two-player game with a known blunder, which an honest analysis finds: the first 34
placements of a game played by the Casual level; then blue (seat 0: blue and red) has an I5 and a
monomino among its pieces, and the monomino at a12 takes the last spot where its long pieces fit
on that side (a playout of the rest then loses the game)."""

from __future__ import annotations

OPENING = [
    "a1,b1,b2,b3,c2",
    "r2,s1,s2,s3,t1",
    "a19,a20,b18,b19,c19",
    "r19,s18,s19,t19,t20",
    "d3,d4,e4,e5,f5",
    "o5,p4,p5,q3,q4",
    "c17,d16,d17,e15,e16",
    "p15,p16,q16,q17,r17",
    "g6,h5,h6,h7,i6",
    "l6,m5,m6,m7,n6",
    "e13,f12,f13,f14,g13",
    "n13,o12,o13,o14,p13",
    "j7,j8,k5,k6,k7",
    "i9,j9,k8,k9,l8",
    "g10,g11,h8,h9,h10",
    "n9,n10,n11,o8,o9",
    "l4,m4,n3,n4,n5",
    "k12,l10,l11,l12,l13",
    "i11,j11,j12,j13,j14",
    "p7,q7,r6,r7,r8",
    "o6,o7,p6,q5,q6",
    "i15,j15,k14,k15,k16",
    "d9,e7,e8,e9,f9",
    "r10,s9,s10,s11,s12",
    "p8,p9,p10,p11,q10",
    "f15,f16,g16,h16,h17",
    "b8,b9,b10,b11,c10",
    "m18,m19,n18,o17,o18",
    "q12,q13,q14,q15,r15",
    "d12,d13,d14,e12,e14",
    "f17,f18,g18,h18,h19",
    "j17,j18,j19,k17,l17",
    "o2,p1,p2,q1,q2",
    "b15,b16,b17,c15,c16",
]

BLUNDER = {"place": "a12"}  # a monomino where the long pieces still fitted
SOUND = {"place": "a12,a13,a14,a15,a16"}  # the I5 there instead
