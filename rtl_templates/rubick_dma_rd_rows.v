// SPDX-License-Identifier: Apache-2.0
// rubick_dma_rd_rows: the row-lanes half of rubick_dma_rd (a corner turn; see there for the
// ports). The tile is read in blocks of LANES rows x W = BLOCK_BEATS*EPB columns (EPB =
// DATA_W/ELEM_W elements per beat), block row gr outer, then column chunk c, then the block's
// rows: one read command per row, the beats covering its columns cW .. cW+W-1 below
// cols_valid. An unaligned row (element 0 not at a beat boundary) shares a beat between two
// chunks: the first chunk reads BLOCK_BEATS + 1 beats, the later ones start after the shared
// beat (BLOCK_BEATS beats, fewer at the row's end, possibly none: a zero-length command, which
// rubick_axi_rd ignores, keeps the chunk's turn). Rows at or past rows_valid and chunks at or
// past cols_valid read nothing.
//
// Each beat is rotated by the row's element offset and written, element by element, into the
// block buffer of its lane: 2 halves x LANES lanes x BLOCK_BEATS words of DATA_W bits, word w
// element x = column cW + w*EPB + x. The part of a shared beat past the chunk goes to the lane's
// spill word (LANES x DATA_W bits) and into word 0 of the lane's next chunk. A half is filled
// while the other is drained; a full half gives W groups (fewer in the last chunk of a row),
// one per cycle, lane l = column j of row gr*LANES + l. Chunks with nothing to read drain zeros
// without a half. The commands run ahead of the data through a descriptor FIFO (DESC_DEPTH
// entries: beats, element offset, shared-beat flag, last row of the chunk).
//
// Timing (as in rubick_dma_rd: start at edge 0, out_ready high, one beat per cycle, latency L,
// enough bursts in flight): number the chunks with data n = 0, 1, ... in order. Their commands'
// beats k = 0, 1, ... (the read stream) are taken into the buffer in cycles
//   a(k) = max(L + 5 + k, a(previous) + 1, free(n))
// where n is the beat's chunk and free(n) = 1 + the cycle the last group of chunk n - 2 left
// (0 for n < 2); a zero-length command takes a turn a = max(a(previous) + 1, free(n)). Groups
// leave one per cycle in order from cycle 1, those of a chunk with data not before the cycle
// after its last turn; done is 2 cycles after the last group leaves.
`default_nettype none

module rubick_dma_rd_rows #(
  parameter integer ADDR_W = 32,
  parameter integer DATA_W = 32,
  parameter integer ELEM_W = 8,
  parameter integer LANES = 2,
  parameter integer ROWS = 4,
  parameter integer COLS = 8,
  parameter integer LEN_W = 20,
  parameter integer BLOCK_BEATS = 1,
  parameter integer DESC_DEPTH = 4
) (
  input  wire                          aclk,
  input  wire                          aresetn,
  input  wire                          start,
  input  wire [            ADDR_W-1:0] base,
  input  wire [            ADDR_W-1:0] pitch,
  input  wire [$clog2(ROWS + 1) - 1:0] rows_valid,
  input  wire [$clog2(COLS + 1) - 1:0] cols_valid,
  output reg                           busy,
  // Read commands (to rubick_axi_rd).
  output reg                           cmd_valid,
  input  wire                          cmd_ready,
  output reg  [            ADDR_W-1:0] cmd_addr,
  output reg  [             LEN_W-1:0] cmd_len,
  // Beats (from rubick_axi_rd).
  input  wire                          in_valid,
  output wire                          in_ready,
  input  wire [            DATA_W-1:0] in_data,
  // Write groups.
  output reg                           out_valid,
  input  wire                          out_ready,
  output reg  [      LANES*ELEM_W-1:0] out_data,
  output reg  [             LANES-1:0] out_mask,
  output reg                           out_last
);

  localparam integer EB = ELEM_W / 8;
  localparam integer LOG_EB = $clog2(EB);
  localparam integer LOG_EW = $clog2(ELEM_W);
  localparam integer ASZ = $clog2(DATA_W / 8);
  localparam integer EPB = DATA_W / ELEM_W;
  localparam integer K = BLOCK_BEATS;
  localparam integer W = K * EPB;  // columns per chunk
  localparam integer GR = (ROWS + LANES - 1) / LANES;  // block rows
  localparam integer RW = $clog2(ROWS + LANES + 1);  // row numbers up to the last block's end
  localparam integer CW = $clog2(COLS + W + 1);  // column numbers up to the last chunk's end
  localparam integer SW = (EPB > 1) ? $clog2(EPB) : 1;  // element within a beat
  localparam integer KW = $clog2(K + 2);  // beats of a command: 1 .. K+1
  localparam integer JW = (W > 1) ? $clog2(W) : 1;  // column within a chunk
  localparam integer IW = (LANES > 1) ? $clog2(LANES) : 1;
  localparam integer QW = $clog2(DESC_DEPTH + 1);
  localparam integer PW = (DESC_DEPTH > 1) ? $clog2(DESC_DEPTH) : 1;
  localparam integer DW = KW + SW + 2;  // descriptor: beats, offset, reuse, last row of chunk
  localparam [ADDR_W-1:0] ALIGN = {ADDR_W{1'b1}} << ASZ;
  localparam [ADDR_W-1:0] BEAT_M1 = ~ALIGN;
  localparam integer CHUNK_I = K << ASZ;
  localparam [ADDR_W-1:0] CHUNK_BYTES = CHUNK_I[ADDR_W-1:0];
  localparam [CW-1:0] W_C = W[CW-1:0];
  localparam [CW-1:0] COLS_LAST = COLS[CW-1:0] - 1'b1;
  localparam [RW-1:0] LANES_R = LANES[RW-1:0];
  localparam integer BLK_LAST_I = (GR - 1) * LANES;
  localparam [RW-1:0] BLK_LAST = BLK_LAST_I[RW-1:0];
  localparam [IW-1:0] SLOT_LAST = LANES[IW-1:0] - 1'b1;
  localparam [JW-1:0] J_LAST = W[JW-1:0] - 1'b1;
  localparam [RW:0] ROWS_R = ROWS[RW:0];
  localparam [PW-1:0] PTR_LAST = DESC_DEPTH[PW-1:0] - 1'b1;
  localparam integer ROOM_I = DESC_DEPTH - 1;
  localparam [QW-1:0] ROOM_Q = ROOM_I[QW-1:0];  // entries with room for this and the next

  wire [RW-1:0] rv = {{(RW - $clog2(ROWS + 1)) {1'b0}}, rows_valid};
  wire [CW-1:0] cv = {{(CW - $clog2(COLS + 1)) {1'b0}}, cols_valid};
  wire          empty = (rows_valid == 0) | (cols_valid == 0);

  // ---- Commands: (block row, chunk, row of the block), only where there is data ----
  reg              c_on;
  reg [    RW-1:0] c_row;  // row number
  reg [    RW-1:0] c_blk;  // first row of the block
  reg [    IW-1:0] c_slot;
  reg [    CW-1:0] c_col0;  // first column of the chunk
  reg [ADDR_W-1:0] c_addr;  // the row's element 0
  reg [ADDR_W-1:0] c_blk_addr;
  reg [ADDR_W-1:0] c_off;  // the chunk's first beat, bytes from the row's first beat
  reg [    QW-1:0] q_count;
  wire [CW-1:0] c_end_col = (c_col0 + W_C < cv) ? c_col0 + W_C : cv;
  wire [ADDR_W-1:0] c_end_byte = c_addr + ({{(ADDR_W - CW) {1'b0}}, c_end_col} << LOG_EB);
  wire [ADDR_W-1:0] c_elem_off = (c_addr & BEAT_M1) >> LOG_EB;
  // An unaligned row's chunk after the first starts one beat later: the previous chunk read
  // the beat they share.
  wire              c_reuse = (c_col0 != 0) & (c_elem_off != 0);
  wire [ADDR_W-1:0] c_from = (c_addr & ALIGN) + c_off + (c_reuse ? BEAT_M1 + 1'b1 : {ADDR_W{1'b0}});
  wire [ADDR_W-1:0] c_beats = (((c_end_byte + BEAT_M1) & ALIGN) - c_from) >> ASZ;
  wire [LEN_W+ADDR_W-1:0] c_beats_x = {{LEN_W{1'b0}}, c_beats};
  wire          more_rows = (c_slot != SLOT_LAST) & (c_row + 1'b1 < rv);
  wire          more_cols = (c_col0 + W_C < cv);
  wire          more_blks = (c_blk + LANES_R < rv);
  wire          c_next = c_on & (~cmd_valid | cmd_ready) & (q_count < ROOM_Q);
  reg  [DW-1:0] c_desc;

  always @(posedge aclk) begin
    if (!aresetn) begin
      c_on      <= 1'b0;
      cmd_valid <= 1'b0;
    end else if (start && !busy) begin
      c_on      <= ~empty;
      cmd_valid <= 1'b0;
    end else begin
      if (cmd_ready) cmd_valid <= 1'b0;
      if (c_next) begin
        cmd_valid <= 1'b1;
        if (!more_rows && !more_cols && !more_blks) c_on <= 1'b0;
      end
    end
  end

  always @(posedge aclk) begin
    if (start && !busy) begin
      c_row      <= {RW{1'b0}};
      c_blk      <= {RW{1'b0}};
      c_slot     <= {IW{1'b0}};
      c_col0     <= {CW{1'b0}};
      c_addr     <= base;
      c_blk_addr <= base;
      c_off      <= {ADDR_W{1'b0}};
    end else if (c_next) begin
      cmd_addr <= c_from;
      cmd_len  <= c_beats_x[LEN_W-1:0];
      c_desc   <= {c_beats[KW-1:0], c_elem_off[SW-1:0], c_reuse, ~more_rows};
      if (more_rows) begin
        c_row  <= c_row + 1'b1;
        c_slot <= c_slot + 1'b1;
        c_addr <= c_addr + pitch;
      end else if (more_cols) begin
        c_row  <= c_blk;
        c_slot <= {IW{1'b0}};
        c_addr <= c_blk_addr;
        c_col0 <= c_col0 + W_C;
        c_off  <= c_off + CHUNK_BYTES;
      end else begin  // next block: only from its last row, so c_addr + pitch is its first
        c_row      <= c_blk + LANES_R;
        c_blk      <= c_blk + LANES_R;
        c_slot     <= {IW{1'b0}};
        c_addr     <= c_addr + pitch;
        c_blk_addr <= c_addr + pitch;
        c_col0     <= {CW{1'b0}};
        c_off      <= {ADDR_W{1'b0}};
      end
    end
  end

  // ---- Descriptor FIFO ----
  reg  [DW-1:0] q_mem[0:DESC_DEPTH-1];
  reg  [PW-1:0] q_wr;
  reg  [PW-1:0] q_rd;
  wire          q_push = cmd_valid & cmd_ready;
  wire [DW-1:0] q_head = q_mem[q_rd];
  wire [KW-1:0] f_len = q_head[DW-1:SW+2];
  wire [SW-1:0] f_off = q_head[SW+1:2];
  wire          f_reuse = q_head[1];
  wire          f_chunk_end = q_head[0];

  // ---- Fill: beats into the half being filled ----
  reg  [     1:0] full;
  reg           f_h;  // half being filled
  reg  [  IW-1:0] f_slot;
  reg  [  KW-1:0] f_m;  // beat of the command
  wire          f_cmd_end = (f_m + 1'b1 == f_len);
  wire          in_fire = in_valid & in_ready;
  // A command with no beat (the chunk's data all in the shared beat) still takes its turn.
  wire          f_zero = busy & ~full[f_h] & (q_count != 0) & (f_len == 0);
  wire          q_pop = (in_fire & f_cmd_end) | f_zero;
  wire [  KW-1:0] m_eff = f_m + {{(KW - 1) {1'b0}}, f_reuse};  // beat of the chunk's window
  wire [2*DATA_W-1:0] rot2 = {in_data, in_data} >> {f_off, {LOG_EW{1'b0}}};
  wire [DATA_W-1:0] rot = rot2[DATA_W-1:0];  // element x = beat element (x + offset) mod EPB
  wire [    SW:0] lo_n = EPB[SW:0] - {1'b0, f_off};  // EPB - offset
  wire [DATA_W-1:0] lo_bits = ~({DATA_W{1'b1}} << {lo_n, {LOG_EW{1'b0}}});

  assign in_ready = busy & ~full[f_h] & (q_count != 0) & (f_len != 0);

  always @(posedge aclk) begin
    if (!aresetn) begin
      q_count <= {QW{1'b0}};
    end else if (start && !busy) begin
      q_count <= {QW{1'b0}};
    end else begin
      if (q_push && !q_pop) q_count <= q_count + 1'b1;
      else if (q_pop && !q_push) q_count <= q_count - 1'b1;
    end
  end

  always @(posedge aclk) begin
    if (start && !busy) begin
      q_wr   <= {PW{1'b0}};
      q_rd   <= {PW{1'b0}};
      f_slot <= {IW{1'b0}};
      f_m    <= {KW{1'b0}};
    end else begin
      if (q_push) begin
        q_mem[q_wr] <= c_desc;
        q_wr        <= (q_wr == PTR_LAST) ? {PW{1'b0}} : q_wr + 1'b1;
      end
      if (in_fire) f_m <= f_cmd_end ? {KW{1'b0}} : f_m + 1'b1;
      if (q_pop) begin
        q_rd   <= (q_rd == PTR_LAST) ? {PW{1'b0}} : q_rd + 1'b1;
        f_slot <= f_chunk_end ? {IW{1'b0}} : f_slot + 1'b1;
      end
    end
  end

  // Word w of a lane takes the low EPB - offset elements of the rotated beat w of its command
  // and the high ones of beat w + 1: write enables for the K words, from a K+2 word vector
  // (ext word u = lane word u - 1).
  // A chunk that reuses the shared beat takes word 0's low part from the lane's spill: the part
  // of its last beat that the previous chunk's command wrote past its window.
  wire [(K+2)*DATA_W-1:0] en_ext =
      ({{((K + 1) * DATA_W) {1'b0}}, lo_bits} << {m_eff + 1'b1, {(ASZ + 3) {1'b0}}}) |
      ({{((K + 1) * DATA_W) {1'b0}}, ~lo_bits} << {m_eff, {(ASZ + 3) {1'b0}}});
  wire [K*DATA_W-1:0] en_beat = in_fire ? en_ext[(K+1)*DATA_W-1:DATA_W] : {(K * DATA_W) {1'b0}};
  wire               from_spill = f_reuse & (f_m == 0);
  wire [K*DATA_W-1:0] en_spill = {{((K - 1) * DATA_W) {1'b0}}, from_spill ? lo_bits : {DATA_W{1'b0}}};
  wire [K*DATA_W-1:0] en = en_beat | en_spill;
  reg  [  DATA_W-1:0] spill[0:LANES-1];
  wire [K*DATA_W-1:0] wdata = ({K{rot}} & en_beat) |
                              {{((K - 1) * DATA_W) {1'b0}}, spill[f_slot]} & en_spill;
  wire               fill_we = in_fire | f_zero;
  reg  [K*DATA_W-1:0] buf0[0:LANES-1];
  reg  [K*DATA_W-1:0] buf1[0:LANES-1];
  always @(posedge aclk) begin
    if (fill_we && !f_h) buf0[f_slot] <= (buf0[f_slot] & ~en) | wdata;
    if (fill_we && f_h) buf1[f_slot] <= (buf1[f_slot] & ~en) | wdata;
    if (in_fire && m_eff == K[KW-1:0]) spill[f_slot] <= rot;
  end

  // ---- Drain: one group per cycle ----
  reg           d_on;
  reg           d_h;  // half being drained
  reg  [RW-1:0] d_blk;
  reg  [CW-1:0] d_col0;
  reg  [CW-1:0] d_col;
  reg  [JW-1:0] d_j;  // column within the chunk
  wire          d_data = (d_col0 < cv) & (d_blk < rv);
  wire          d_fire = d_on & (~out_valid | out_ready) & (~d_data | full[d_h]);
  wire          d_row_end = (d_col == COLS_LAST);
  wire          d_chunk_end = d_row_end | (d_j == J_LAST);
  wire          d_tile_end = d_row_end & (d_blk == BLK_LAST);
  reg  [LANES*ELEM_W-1:0] d_group;
  reg  [       LANES-1:0] d_inside;
  reg  [  K*DATA_W-1:0] d_lane;
  integer l;
  always @* begin
    for (l = 0; l < LANES; l = l + 1) begin
      d_lane = (d_h ? buf1[l] : buf0[l]) >> {d_j, {LOG_EW{1'b0}}};
      d_group[l*ELEM_W+:ELEM_W] = (d_blk + l[RW-1:0] < rv) && (d_col < cv) ?
                                  d_lane[ELEM_W-1:0] : {ELEM_W{1'b0}};
      d_inside[l] = ({1'b0, d_blk} + {1'b0, l[RW-1:0]} < ROWS_R);
    end
  end

  always @(posedge aclk) begin
    if (!aresetn) begin
      busy      <= 1'b0;
      d_on      <= 1'b0;
      out_valid <= 1'b0;
      full      <= 2'b00;
    end else if (start && !busy) begin
      busy <= 1'b1;
      d_on <= 1'b1;
      full <= 2'b00;
    end else begin
      if (out_valid && out_ready) begin
        out_valid <= 1'b0;
        if (out_last) busy <= 1'b0;
      end
      if (d_fire) begin
        out_valid <= 1'b1;
        if (d_tile_end) d_on <= 1'b0;
      end
      if (q_pop && f_chunk_end) full[f_h] <= 1'b1;
      if (d_fire && d_chunk_end && d_data) full[d_h] <= 1'b0;
    end
  end

  always @(posedge aclk) begin
    if (start && !busy) begin
      f_h    <= 1'b0;
      d_h    <= 1'b0;
      d_blk  <= {RW{1'b0}};
      d_col0 <= {CW{1'b0}};
      d_col  <= {CW{1'b0}};
      d_j    <= {JW{1'b0}};
    end else begin
      if (q_pop && f_chunk_end) f_h <= ~f_h;
      if (d_fire) begin
        out_data <= d_group;
        out_mask <= d_inside;
        out_last <= d_tile_end;
        if (d_chunk_end && d_data) d_h <= ~d_h;
        d_j <= d_chunk_end ? {JW{1'b0}} : d_j + 1'b1;
        if (d_row_end) begin
          d_blk  <= d_blk + LANES_R;
          d_col0 <= {CW{1'b0}};
          d_col  <= {CW{1'b0}};
        end else begin
          d_col <= d_col + 1'b1;
          if (d_chunk_end) d_col0 <= d_col + 1'b1;
        end
      end
    end
  end

  wire unused_bits = &{1'b0, c_beats_x, c_elem_off, rot2[2*DATA_W-1:DATA_W],
                     en_ext[(K+2)*DATA_W-1:(K+1)*DATA_W], en_ext[DATA_W-1:0], d_lane};

endmodule

`default_nettype wire
