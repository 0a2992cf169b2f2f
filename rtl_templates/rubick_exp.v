// SPDX-License-Identifier: Apache-2.0
// rubick_exp: the softmax exponential, exp(-d / 2^EXP_FRAC) in Q0.15 for a distance d >= 0.
//
// Timing: one cycle. At every clock edge
//   out_valid <= in_valid
//   out       <= exp_q15(d) if in_valid, else out is held
// where (docs/attention-numerics.md; bit-exact with expQ15Distance in
// include/rubick/ref/Fixed.h, which tests/rtl/test_rubick_exp.cpp checks):
//   y = d * 94548                       94548 = round(log2(e) * 2^16): y / 2^(EXP_FRAC + 16)
//                                       is the base-2 exponent d / 2^EXP_FRAC * log2(e)
//   n = y >> (EXP_FRAC + 16)            its integer part: a right shift
//   f = y[EXP_FRAC+15 : EXP_FRAC+8]     its first 8 fraction bits: a table index
//   exp_q15 = n >= 16 ? 0 : LUT[f] >> n,   LUT[f] = min(32767, round(32768 * 2^(-f/256)))
// so d = 0 gives 32767 (1.0 does not fit in Q0.15). The softmax feeds d = max - score.
// No reset: out and out_valid are undefined until the first clock edge.
//
// Parameters:
//   EXP_FRAC  fraction bits of the argument (d stands for d / 2^EXP_FRAC), 0..24
`default_nettype none

module rubick_exp #(
  parameter EXP_FRAC = 12
) (
  input  wire        clk,
  input  wire        in_valid,
  input  wire [31:0] d,
  output reg         out_valid,
  output reg  [15:0] out
);

  // y = d * 94548 needs 32 + 17 bits.
  localparam YW = 49;
  localparam [YW-1:0] LOG2E = 94548;

  // LUT[f] = min(32767, round(32768 * 2^(-f/256))), as logic (a 256 x 15 ROM).
  function [14:0] lut;
    input [7:0] f;
    begin
      case (f)
        8'd0: lut = 15'd32767; 8'd1: lut = 15'd32679; 8'd2: lut = 15'd32591;
        8'd3: lut = 15'd32503; 8'd4: lut = 15'd32415; 8'd5: lut = 15'd32327;
        8'd6: lut = 15'd32240; 8'd7: lut = 15'd32153; 8'd8: lut = 15'd32066;
        8'd9: lut = 15'd31979; 8'd10: lut = 15'd31893; 8'd11: lut = 15'd31806;
        8'd12: lut = 15'd31720; 8'd13: lut = 15'd31635; 8'd14: lut = 15'd31549;
        8'd15: lut = 15'd31464; 8'd16: lut = 15'd31379; 8'd17: lut = 15'd31294;
        8'd18: lut = 15'd31209; 8'd19: lut = 15'd31125; 8'd20: lut = 15'd31041;
        8'd21: lut = 15'd30957; 8'd22: lut = 15'd30873; 8'd23: lut = 15'd30790;
        8'd24: lut = 15'd30706; 8'd25: lut = 15'd30623; 8'd26: lut = 15'd30541;
        8'd27: lut = 15'd30458; 8'd28: lut = 15'd30376; 8'd29: lut = 15'd30293;
        8'd30: lut = 15'd30212; 8'd31: lut = 15'd30130; 8'd32: lut = 15'd30048;
        8'd33: lut = 15'd29967; 8'd34: lut = 15'd29886; 8'd35: lut = 15'd29805;
        8'd36: lut = 15'd29725; 8'd37: lut = 15'd29644; 8'd38: lut = 15'd29564;
        8'd39: lut = 15'd29484; 8'd40: lut = 15'd29405; 8'd41: lut = 15'd29325;
        8'd42: lut = 15'd29246; 8'd43: lut = 15'd29167; 8'd44: lut = 15'd29088;
        8'd45: lut = 15'd29009; 8'd46: lut = 15'd28931; 8'd47: lut = 15'd28852;
        8'd48: lut = 15'd28774; 8'd49: lut = 15'd28697; 8'd50: lut = 15'd28619;
        8'd51: lut = 15'd28542; 8'd52: lut = 15'd28464; 8'd53: lut = 15'd28388;
        8'd54: lut = 15'd28311; 8'd55: lut = 15'd28234; 8'd56: lut = 15'd28158;
        8'd57: lut = 15'd28082; 8'd58: lut = 15'd28006; 8'd59: lut = 15'd27930;
        8'd60: lut = 15'd27855; 8'd61: lut = 15'd27779; 8'd62: lut = 15'd27704;
        8'd63: lut = 15'd27629; 8'd64: lut = 15'd27554; 8'd65: lut = 15'd27480;
        8'd66: lut = 15'd27406; 8'd67: lut = 15'd27332; 8'd68: lut = 15'd27258;
        8'd69: lut = 15'd27184; 8'd70: lut = 15'd27110; 8'd71: lut = 15'd27037;
        8'd72: lut = 15'd26964; 8'd73: lut = 15'd26891; 8'd74: lut = 15'd26818;
        8'd75: lut = 15'd26746; 8'd76: lut = 15'd26674; 8'd77: lut = 15'd26601;
        8'd78: lut = 15'd26530; 8'd79: lut = 15'd26458; 8'd80: lut = 15'd26386;
        8'd81: lut = 15'd26315; 8'd82: lut = 15'd26244; 8'd83: lut = 15'd26173;
        8'd84: lut = 15'd26102; 8'd85: lut = 15'd26031; 8'd86: lut = 15'd25961;
        8'd87: lut = 15'd25891; 8'd88: lut = 15'd25821; 8'd89: lut = 15'd25751;
        8'd90: lut = 15'd25681; 8'd91: lut = 15'd25612; 8'd92: lut = 15'd25543;
        8'd93: lut = 15'd25474; 8'd94: lut = 15'd25405; 8'd95: lut = 15'd25336;
        8'd96: lut = 15'd25268; 8'd97: lut = 15'd25199; 8'd98: lut = 15'd25131;
        8'd99: lut = 15'd25063; 8'd100: lut = 15'd24995; 8'd101: lut = 15'd24928;
        8'd102: lut = 15'd24860; 8'd103: lut = 15'd24793; 8'd104: lut = 15'd24726;
        8'd105: lut = 15'd24659; 8'd106: lut = 15'd24593; 8'd107: lut = 15'd24526;
        8'd108: lut = 15'd24460; 8'd109: lut = 15'd24394; 8'd110: lut = 15'd24328;
        8'd111: lut = 15'd24262; 8'd112: lut = 15'd24196; 8'd113: lut = 15'd24131;
        8'd114: lut = 15'd24066; 8'd115: lut = 15'd24001; 8'd116: lut = 15'd23936;
        8'd117: lut = 15'd23871; 8'd118: lut = 15'd23806; 8'd119: lut = 15'd23742;
        8'd120: lut = 15'd23678; 8'd121: lut = 15'd23614; 8'd122: lut = 15'd23550;
        8'd123: lut = 15'd23486; 8'd124: lut = 15'd23423; 8'd125: lut = 15'd23359;
        8'd126: lut = 15'd23296; 8'd127: lut = 15'd23233; 8'd128: lut = 15'd23170;
        8'd129: lut = 15'd23108; 8'd130: lut = 15'd23045; 8'd131: lut = 15'd22983;
        8'd132: lut = 15'd22921; 8'd133: lut = 15'd22859; 8'd134: lut = 15'd22797;
        8'd135: lut = 15'd22735; 8'd136: lut = 15'd22674; 8'd137: lut = 15'd22613;
        8'd138: lut = 15'd22552; 8'd139: lut = 15'd22491; 8'd140: lut = 15'd22430;
        8'd141: lut = 15'd22369; 8'd142: lut = 15'd22309; 8'd143: lut = 15'd22248;
        8'd144: lut = 15'd22188; 8'd145: lut = 15'd22128; 8'd146: lut = 15'd22068;
        8'd147: lut = 15'd22009; 8'd148: lut = 15'd21949; 8'd149: lut = 15'd21890;
        8'd150: lut = 15'd21831; 8'd151: lut = 15'd21772; 8'd152: lut = 15'd21713;
        8'd153: lut = 15'd21654; 8'd154: lut = 15'd21595; 8'd155: lut = 15'd21537;
        8'd156: lut = 15'd21479; 8'd157: lut = 15'd21421; 8'd158: lut = 15'd21363;
        8'd159: lut = 15'd21305; 8'd160: lut = 15'd21247; 8'd161: lut = 15'd21190;
        8'd162: lut = 15'd21133; 8'd163: lut = 15'd21076; 8'd164: lut = 15'd21019;
        8'd165: lut = 15'd20962; 8'd166: lut = 15'd20905; 8'd167: lut = 15'd20849;
        8'd168: lut = 15'd20792; 8'd169: lut = 15'd20736; 8'd170: lut = 15'd20680;
        8'd171: lut = 15'd20624; 8'd172: lut = 15'd20568; 8'd173: lut = 15'd20513;
        8'd174: lut = 15'd20457; 8'd175: lut = 15'd20402; 8'd176: lut = 15'd20347;
        8'd177: lut = 15'd20292; 8'd178: lut = 15'd20237; 8'd179: lut = 15'd20182;
        8'd180: lut = 15'd20127; 8'd181: lut = 15'd20073; 8'd182: lut = 15'd20019;
        8'd183: lut = 15'd19965; 8'd184: lut = 15'd19911; 8'd185: lut = 15'd19857;
        8'd186: lut = 15'd19803; 8'd187: lut = 15'd19750; 8'd188: lut = 15'd19696;
        8'd189: lut = 15'd19643; 8'd190: lut = 15'd19590; 8'd191: lut = 15'd19537;
        8'd192: lut = 15'd19484; 8'd193: lut = 15'd19431; 8'd194: lut = 15'd19379;
        8'd195: lut = 15'd19326; 8'd196: lut = 15'd19274; 8'd197: lut = 15'd19222;
        8'd198: lut = 15'd19170; 8'd199: lut = 15'd19118; 8'd200: lut = 15'd19066;
        8'd201: lut = 15'd19015; 8'd202: lut = 15'd18963; 8'd203: lut = 15'd18912;
        8'd204: lut = 15'd18861; 8'd205: lut = 15'd18810; 8'd206: lut = 15'd18759;
        8'd207: lut = 15'd18708; 8'd208: lut = 15'd18658; 8'd209: lut = 15'd18607;
        8'd210: lut = 15'd18557; 8'd211: lut = 15'd18507; 8'd212: lut = 15'd18457;
        8'd213: lut = 15'd18407; 8'd214: lut = 15'd18357; 8'd215: lut = 15'd18308;
        8'd216: lut = 15'd18258; 8'd217: lut = 15'd18209; 8'd218: lut = 15'd18160;
        8'd219: lut = 15'd18110; 8'd220: lut = 15'd18061; 8'd221: lut = 15'd18013;
        8'd222: lut = 15'd17964; 8'd223: lut = 15'd17915; 8'd224: lut = 15'd17867;
        8'd225: lut = 15'd17819; 8'd226: lut = 15'd17770; 8'd227: lut = 15'd17722;
        8'd228: lut = 15'd17674; 8'd229: lut = 15'd17627; 8'd230: lut = 15'd17579;
        8'd231: lut = 15'd17531; 8'd232: lut = 15'd17484; 8'd233: lut = 15'd17437;
        8'd234: lut = 15'd17390; 8'd235: lut = 15'd17343; 8'd236: lut = 15'd17296;
        8'd237: lut = 15'd17249; 8'd238: lut = 15'd17202; 8'd239: lut = 15'd17156;
        8'd240: lut = 15'd17109; 8'd241: lut = 15'd17063; 8'd242: lut = 15'd17017;
        8'd243: lut = 15'd16971; 8'd244: lut = 15'd16925; 8'd245: lut = 15'd16879;
        8'd246: lut = 15'd16834; 8'd247: lut = 15'd16788; 8'd248: lut = 15'd16743;
        8'd249: lut = 15'd16697; 8'd250: lut = 15'd16652; 8'd251: lut = 15'd16607;
        8'd252: lut = 15'd16562; 8'd253: lut = 15'd16518; 8'd254: lut = 15'd16473;
        8'd255: lut = 15'd16428;
        default: lut = 15'd0;
      endcase
    end
  endfunction

  wire [YW-1:0] y = {{(YW - 32){1'b0}}, d} * LOG2E;
  // n >= 16: any bit of y from EXP_FRAC + 20 up.
  wire          tiny = |y[YW-1:EXP_FRAC+20];
  wire [   3:0] n = y[EXP_FRAC+19:EXP_FRAC+16];
  wire [   7:0] frac = y[EXP_FRAC+15:EXP_FRAC+8];
  wire [  15:0] value = tiny ? 16'd0 : {1'b0, lut(frac)} >> n;
  wire          unused_low = &{1'b0, y[EXP_FRAC+7:0]};

  generate
    if (EXP_FRAC < 0 || EXP_FRAC > 24) begin : g_bad_frac
      // Elaboration error on purpose: EXP_FRAC must be 0..24.
      rubick_exp_parameter_EXP_FRAC_must_be_0_to_24 u_error ();
    end
  endgenerate

  always @(posedge clk) begin
    out_valid <= in_valid;
    if (in_valid) out <= value;
  end

endmodule

`default_nettype wire
